/** An adapter the harness cannot use as it declared itself, or that broke the protocol; the message names what is wrong. */
export class AdapterError extends Error {
  override name = 'AdapterError';
}

/**
 * One word as a POSIX shell reads it back exactly: single-quoted, each quote inside closed,
 * escaped and reopened. For brokers that take their server's command line as one string and
 * split it as a shell would (supergateway through a shell, the Inspector's proxy with shell-quote).
 */
export function shellWord(word: string): string {
  return `'${word.replace(/'/g, `'\\''`)}'`;
}

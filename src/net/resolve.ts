// Name resolution as one function, shared by the address guard's check and the HTTP client's
// dials, so that both judge the same answer and tests can stand in for DNS.

export interface Resolved {
  readonly address: string;
  /** 4 or 6. */
  readonly family: number;
}

/** Every address a name resolves to; rejects when it does not resolve. */
export type Resolver = (name: string) => Promise<readonly Resolved[]>;

/**
 * The system's resolver (hosts file, then DNS), every address in the order it gives them. Its
 * module is loaded at the first name asked, not at the broker's start: a broker of stdio servers
 * never resolves a name, and loading it is about a millisecond of every start.
 */
export const systemResolver: Resolver = (name) => process.getBuiltinModule('node:dns/promises').lookup(name, { all: true, verbatim: true });

/**
 * `resolve`, asked once per name: every later question about that name gets the first answer,
 * a failure included. The address guard judges that answer and the HTTP client dials from it, so
 * a resolver that answers differently later (DNS rebinding) is never asked again. A name whose
 * addresses really move stays at the ones judged until the broker is started again: it fails
 * closed, at worst unreachable, never reaching an address nobody judged.
 */
export function resolvingOnce(resolve: Resolver): Resolver {
  const answers = new Map<string, Promise<readonly Resolved[]>>();
  return (name) => {
    let answer = answers.get(name);
    if (answer === undefined) {
      answer = resolve(name);
      answers.set(name, answer);
    }
    return answer;
  };
}

/**
 * The queue kinds the service can enqueue, declared by the modules that enqueue them when they
 * are imported (`declareQueueKind('job')`). An engine that keeps a queue per kind (pg-boss)
 * creates them all when it starts, so an enqueue inside a transaction only inserts through it.
 */
const declared = new Set<string>();

/** Declares `kind` as one the service enqueues. */
export function declareQueueKind(kind: string): void {
  declared.add(kind);
}

/** The kinds declared so far, in declaration order. */
export function declaredQueueKinds(): string[] {
  return [...declared];
}

/**
 * Awaits `start()`'s promise and counts the turns of the event loop (setImmediate callbacks) that
 * ran meanwhile: few when the work held the loop, about one per batch when it let it turn.
 */
export async function countTurns<T>(start: () => Promise<T>): Promise<{ result: T; turns: number }> {
  let turns = 0;
  let done = false;
  const count = () => {
    if (done) return;
    turns += 1;
    setImmediate(count);
  };
  const work = start().finally(() => {
    done = true;
  });
  setImmediate(count);
  return { result: await work, turns };
}

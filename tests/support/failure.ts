/** The error a synchronous call throws; fails the test when it returns instead. */
export function failure(run: () => unknown): Error {
  try {
    run();
  } catch (error) {
    return error as Error;
  }
  throw new Error('expected a failure');
}

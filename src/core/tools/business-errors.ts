/**
 * Thrown by a browser tool's handler to report a confirmed failure: nothing was done (or what was
 * done is known), so the call ends `failed` with this message, which the user and the model see.
 */
export class BusinessFailure extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'BusinessFailure';
  }
}

/**
 * Thrown by a browser tool's handler after its signal aborted, to confirm it stopped with nothing
 * left half done: the call ends `cancelled`. Any other exception leaves the outcome unknown.
 */
export class BusinessCancelled extends Error {
  constructor(message = 'The tool stopped before doing anything.') {
    super(message);
    this.name = 'BusinessCancelled';
  }
}

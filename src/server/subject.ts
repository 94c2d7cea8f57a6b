/** The product's user, as `authenticate(req)` resolved it. Never taken from the browser. */
export interface Subject {
  id: string;
  displayName?: string;
}

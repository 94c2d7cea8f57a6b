import {
  createInitialClientState,
  type AgentClient,
  type ApprovalDecision,
  type AttachmentRef,
  type BootstrapResponse,
  type ClientState,
  type MessageFeedback,
  type SendOptions,
  type StateListener,
} from '../../core/index.ts';

/** One recorded call of a `FakeAgentClient` action. */
export type FakeClientCall =
  | { name: 'send'; text: string; options: SendOptions | undefined }
  | { name: 'cancel' }
  | { name: 'approve'; interruptId: string; decision: ApprovalDecision }
  | { name: 'addInput'; text: string }
  | { name: 'sendFeedback'; runId: string; messageId: string; feedback: MessageFeedback }
  | { name: 'uploadAttachment'; file: Blob; fileName: string; signal: AbortSignal | undefined }
  | { name: 'retry' }
  | { name: 'newSession' }
  | { name: 'switchSession'; sessionId: string }
  | { name: 'loadOlderMessages' }
  | { name: 'setVisibility'; visible: boolean }
  | { name: 'setOnline'; online: boolean };

/**
 * A stand-in `AgentClient` for component tests: the test pushes state with `emit` and reads the
 * recorded actions in `calls`. `nextSend` decides how the next `send` settles (resolve by default).
 */
export class FakeAgentClient implements AgentClient {
  readonly calls: FakeClientCall[] = [];
  listenerCount = 0;
  nextSend: () => Promise<{ runId: string }> = () => Promise.resolve({ runId: 'run-1' });
  /** Decides how each `uploadAttachment` settles (a stored file named after it by default). */
  nextUpload: (file: Blob, name: string) => Promise<AttachmentRef> = (file, name) =>
    Promise.resolve({ attachmentId: `att_${this.calls.length}`, name, mediaType: file.type, size: file.size });
  /** Decides how each `loadOlderMessages` settles (resolve by default). */
  nextOlderPage: () => Promise<void> = () => Promise.resolve();
  #state: ClientState = createInitialClientState();
  #listeners = new Set<StateListener>();

  /** Replaces the state with `patch` laid over it and notifies every subscriber. */
  emit(patch: Partial<ClientState>): void {
    this.#state = { ...this.#state, ...patch };
    for (const listener of this.#listeners) listener(this.#state);
  }

  bootstrap(): Promise<BootstrapResponse> {
    return Promise.reject(new Error('FakeAgentClient has no bootstrap'));
  }
  send(text: string, options?: SendOptions): Promise<{ runId: string }> {
    this.calls.push({ name: 'send', text, options });
    return this.nextSend();
  }
  cancel(): Promise<void> {
    this.calls.push({ name: 'cancel' });
    return Promise.resolve();
  }
  approve(interruptId: string, decision: ApprovalDecision): Promise<void> {
    this.calls.push({ name: 'approve', interruptId, decision });
    return Promise.resolve();
  }
  addInput(text: string): Promise<void> {
    this.calls.push({ name: 'addInput', text });
    return Promise.resolve();
  }
  sendFeedback(runId: string, messageId: string, feedback: MessageFeedback): Promise<void> {
    this.calls.push({ name: 'sendFeedback', runId, messageId, feedback });
    return Promise.resolve();
  }
  uploadAttachment(file: Blob, { name, signal }: { name: string; signal?: AbortSignal }): Promise<AttachmentRef> {
    this.calls.push({ name: 'uploadAttachment', file, fileName: name, signal });
    return this.nextUpload(file, name);
  }
  restore(): Promise<void> {
    return Promise.resolve();
  }
  connect(): Promise<void> {
    return Promise.resolve();
  }
  switchSession(sessionId: string): Promise<void> {
    this.calls.push({ name: 'switchSession', sessionId });
    return Promise.resolve();
  }
  loadOlderMessages(): Promise<void> {
    this.calls.push({ name: 'loadOlderMessages' });
    return this.nextOlderPage();
  }
  newSession(): void {
    this.calls.push({ name: 'newSession' });
    this.emit({ ...createInitialClientState(), bootstrap: this.#state.bootstrap });
  }
  retry(): Promise<void> {
    this.calls.push({ name: 'retry' });
    return Promise.resolve();
  }
  subscribe(listener: StateListener): () => void {
    this.#listeners.add(listener);
    this.listenerCount = this.#listeners.size;
    return () => {
      this.#listeners.delete(listener);
      this.listenerCount = this.#listeners.size;
    };
  }
  getState(): ClientState {
    return this.#state;
  }
  resetIdentity(): void {
    this.#state = createInitialClientState();
  }
  setVisibility(visible: boolean): void {
    this.calls.push({ name: 'setVisibility', visible });
  }
  setOnline(online: boolean): void {
    this.calls.push({ name: 'setOnline', online });
  }
  dispose(): void {
    this.#listeners.clear();
    this.listenerCount = 0;
  }
}

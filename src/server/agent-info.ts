/** The agent a handler serves (published in bootstrap, pinned into sessions). */
export interface AgentInfo {
  agentId: string;
  /** The version new sessions are pinned to (published in bootstrap). */
  versionId: string;
  /**
   * Earlier versions still served: a session pinned to one keeps running on it after `versionId`
   * changed (docs/server.md, "Agent versions"). Not published; a new session never gets one.
   */
  servedVersionIds?: readonly string[];
  name: string;
  /** Anything but `active` refuses new runs for every version; history stays readable. */
  status?: 'active' | 'disabled' | 'archived';
  /** The agent's picture, published in bootstrap for the widget's header: an http(s) URL or a path. */
  avatarUrl?: string;
}

/** Returns `agent` when its `avatarUrl` (if any) is an http(s) URL or a path; throws a TypeError that says what to fix. */
export function checkAgentInfo(agent: AgentInfo): AgentInfo {
  const url = agent.avatarUrl;
  if (url === undefined) return agent;
  let isHttp = false;
  try {
    isHttp = ['http:', 'https:'].includes(new URL(url, 'http://base.invalid').protocol);
  } catch {
    isHttp = false;
  }
  if (!isHttp)
    throw new TypeError(`createAgentHandler: agent.avatarUrl must be an http(s) URL or a path, e.g. "/avatar.svg".`);
  return agent;
}

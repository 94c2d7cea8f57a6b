import type { Sleep } from '../../core/clock.ts';
import { createClockSleep, createSystemClock } from '../../core/clock.ts';
import type { ToolDefinition } from './tool-registry.ts';
import { createDemoDraftFolders } from './demo-drafts.ts';
import type { DemoDraftFolders } from './demo-drafts.ts';
import { createDemoProfiles, createDemoProfileTools } from './demo-profiles.ts';
import type { DemoProfiles } from './demo-profiles.ts';
import { ToolError, ToolStoppedError } from './tool-registry.ts';

/** Options of {@link createDemoTools}. */
export interface DemoToolsOptions {
  /** Waits between work steps; inject a virtual one in tests. */
  sleep?: Sleep;
  /** Simulated latency of one work step in ms (default 400). */
  stepMs?: number;
  /** Every user's drafts (default a fresh in-memory set of folders). */
  drafts?: DemoDraftFolders;
  /** Every user's profile (default a fresh in-memory set). */
  profiles?: DemoProfiles;
}

/**
 * Creates the demo tools that show the range of governance: `orders.lookup` (read-only,
 * `allow`), `drafts.list` (read-only, `allow`) and `drafts.delete` (changes something, `ask`, its
 * approval naming the draft by title) on the calling user's own drafts, `report.generate` (long, `allow`, reports progress, honours
 * its signal and confirms a stop with `ToolStoppedError`), and `profile.propose` with the
 * `profile.update` write it proposes (`demo-profiles.ts`).
 */
export function createDemoTools(options: DemoToolsOptions = {}): ToolDefinition[] {
  const sleep = options.sleep ?? createClockSleep(createSystemClock());
  const stepMs = options.stepMs ?? 400;
  const drafts = options.drafts ?? createDemoDraftFolders();
  const profiles = options.profiles ?? createDemoProfiles();
  return [
    {
      name: 'orders.lookup',
      title: 'Look up an order',
      titles: { 'zh-CN': '查询订单' },
      description: 'Looks up an order by its id and returns its status, items and delivery estimate. Read-only.',
      parameters: {
        type: 'object',
        properties: {
          orderId: {
            type: 'string',
            minLength: 1,
            maxLength: 40,
            pattern: '^A-[0-9]+$',
            description: 'The order id, e.g. A-1001',
          },
        },
        required: ['orderId'],
        additionalProperties: false,
      },
      policy: 'allow',
      run: async (args, { signal }) => {
        await sleep(stepMs, signal);
        return describeOrder(String(args['orderId']));
      },
    },
    {
      name: 'drafts.list',
      title: 'List drafts',
      titles: { 'zh-CN': '列出草稿' },
      description: "Lists the user's email drafts (id and title), oldest first. Read-only.",
      parameters: { type: 'object', properties: {}, additionalProperties: false },
      policy: 'allow',
      run: async (_args, { signal, subject }) => {
        await sleep(stepMs, signal);
        return { drafts: drafts.list(subject.id) };
      },
    },
    {
      name: 'drafts.delete',
      title: 'Delete a draft',
      titles: { 'zh-CN': '删除草稿' },
      destructive: true,
      description: "Permanently deletes one of the user's email drafts by id. Needs the user's approval.",
      parameters: {
        type: 'object',
        properties: {
          draftId: { type: 'string', minLength: 1, maxLength: 40, description: 'The draft id, e.g. draft-42' },
        },
        required: ['draftId'],
        additionalProperties: false,
      },
      policy: 'ask',
      approval: {
        // The question names the draft by its title, looked up in the user's own folder.
        summary(args, { subject, locale }) {
          const draftId = String(args['draftId']);
          const name = drafts.list(subject.id).find((draft) => draft.draftId === draftId)?.title ?? draftId;
          return locale?.toLowerCase().startsWith('zh') ? `删除草稿“${name}”？` : `Delete the draft "${name}"?`;
        },
        consequence: "This can't be undone.",
        consequences: { 'zh-CN': '此操作无法撤销。' },
      },
      run: async (args, { signal, subject }) => {
        const draftId = String(args['draftId']);
        await sleep(stepMs, signal);
        if (!drafts.delete(subject.id, draftId)) throw new ToolError(`There is no draft ${draftId} to delete.`);
        return { draftId, deleted: true };
      },
    },
    {
      name: 'report.generate',
      title: 'Generate a report',
      titles: { 'zh-CN': '生成报告' },
      description: 'Writes a short report on a topic, section by section, reporting progress as it goes.',
      parameters: {
        type: 'object',
        properties: {
          topic: { type: 'string', minLength: 1, maxLength: 200 },
          sections: { type: 'integer', minimum: 1, maximum: 10 },
        },
        required: ['topic'],
        additionalProperties: false,
      },
      policy: 'allow',
      run: async (args, { signal, progress }) => {
        const topic = String(args['topic']);
        const sections = typeof args['sections'] === 'number' ? args['sections'] : 4;
        const lines = [`# Report: ${topic}`];
        for (let index = 1; index <= sections; index += 1) {
          try {
            await sleep(stepMs, signal);
          } catch {
            throw new ToolStoppedError(`Stopped after ${index - 1} of ${sections} sections.`);
          }
          lines.push(`## Section ${index}`, `Findings ${index} on ${topic}.`);
          progress(`Wrote section ${index} of ${sections}`, index / sections);
        }
        return lines.join('\n');
      },
    },
    ...createDemoProfileTools(profiles),
  ];
}

function describeOrder(orderId: string): Record<string, unknown> {
  const seed = [...orderId].reduce((sum, char) => sum + char.charCodeAt(0), 0);
  const statuses = ['processing', 'shipped', 'delivered'];
  return {
    orderId,
    status: statuses[seed % statuses.length],
    items: [
      { sku: `SKU-${(seed % 90) + 10}`, name: 'Ergonomic keyboard', quantity: 1 },
      { sku: `SKU-${(seed % 70) + 20}`, name: 'USB-C cable', quantity: 2 },
    ],
    totalEur: 89 + (seed % 40),
    carrier: 'DHL',
    estimatedDelivery: `2026-12-${String((seed % 20) + 1).padStart(2, '0')}`,
  };
}

/**
 * `npm run bench:provider-replay`: replays every recorded provider stream of
 * `src/server/models/fixtures/` through the real engine (a local fake provider serves it over HTTP)
 * and prints, per fixture, what a user and the next model call got against what the fixture says:
 * the answer text, the tool call ids sent back, and the usage the run reported. Ends with the
 * number of fixtures read exactly right.
 */
import {
  computeExpectation,
  findProviderFixture,
  loadProviderFixtures,
} from '../src/server/models/test-support/provider-fixtures.ts';
import { replayProviderFixture } from '../src/server/models/test-support/replay-provider-fixture.ts';

const followUp = findProviderFixture('azure-text');
const followUpUsage = computeExpectation(followUp.payloads).usage;
const rows: string[][] = [['fixture', 'answer', 'tool call ids sent back', 'usage in/out']];
let exact = 0;
const fixtures = loadProviderFixtures();
for (const fixture of fixtures) {
  const expected = computeExpectation(fixture.payloads);
  const replay = await replayProviderFixture(fixture, followUp);
  const isRetried = expected.error !== null;
  const hasTools = expected.toolCalls.length > 0;
  const wantedText = isRetried ? computeExpectation(followUp.payloads).text : expected.text;
  const shownText = replay.answer ?? '';
  const answer =
    hasTools && wantedText === '' && replay.answer === undefined
      ? '- (a tool round)'
      : replay.answer === undefined && wantedText !== ''
        ? `none shown (expected ${wantedText.length} chars)`
        : shownText === wantedText
          ? `ok (${shownText.length} chars${replay.answerFinishReason === 'length' ? ', cut' : ''})`
          : `${shownText.length} chars, expected ${wantedText.length}`;
  const isCutUnmarked = !hasTools && expected.finishReason === 'length' && replay.answerFinishReason !== 'length';
  const answerCell = isCutUnmarked && replay.answer === undefined ? 'no message, so the cut is not shown' : answer;
  const wantedIds = expected.toolCalls.map((call) => call.id).join(', ');
  const sentIds = replay.sentToolCalls.map((call) => call.id).join(', ');
  const ids = !hasTools ? '-' : sentIds === wantedIds ? `ok (${sentIds})` : `${sentIds}, expected ${wantedIds}`;
  const usages = isRetried ? [followUpUsage] : hasTools ? [expected.usage, followUpUsage] : [expected.usage];
  const wantedIn = usages.reduce((sum, usage) => sum + (usage?.inputTokens ?? 0), 0);
  const wantedOut = usages.reduce((sum, usage) => sum + (usage?.outputTokens ?? 0), 0);
  const reported = `${replay.usage?.inputTokens ?? 0}/${replay.usage?.outputTokens ?? 0}`;
  const usage =
    reported === `${wantedIn}/${wantedOut}` ? `ok (${reported})` : `${reported}, expected ${wantedIn}/${wantedOut}`;
  if ([answerCell, ids, usage].every((cell) => cell.startsWith('-') || cell.startsWith('ok'))) exact += 1;
  rows.push([fixture.name, answerCell, ids, usage]);
}
const widths = rows[0]?.map((_, column) => Math.max(...rows.map((row) => row[column]?.length ?? 0))) ?? [];
for (const row of rows) console.log(row.map((cell, column) => cell.padEnd(widths[column] ?? 0)).join('  '));
console.log(`provider replay: ${exact} of ${fixtures.length} recorded streams read exactly right`);

import { describe, expect, it } from 'vitest';
import { DomainError } from '../domain-error.ts';
import { parseContractBody } from './request-body-validators.ts';
import { refuseUnsupportedContent } from './validate-content.ts';

const limits = { maxIdChars: 8, maxContentParts: 2, maxContextRefs: 1, maxContextRefChars: 4, maxReasonChars: 5 };
const input = { content: [{ type: 'text', text: 'Hi' }] };

function problemOf(run: () => unknown): { code: string; details: unknown } {
  try {
    run();
  } catch (error) {
    if (error instanceof DomainError) return { code: error.init.code, details: error.init.details };
    throw error;
  }
  throw new Error('expected a problem');
}

describe('parseContractBody', () => {
  it('returns a valid body as it came, members the schema does not name included', () => {
    const body = { agentVersionId: 'agv_1', input, futureMember: true };
    expect(parseContractBody('CreateRunRequest', body, { limits })).toBe(body);
  });

  it('names the limit passed, its size and the path of the field', () => {
    const body = { agentVersionId: 'agv_1', input: { ...input, contextRefs: [{ ref: 'doc:42' }] } };
    expect(problemOf(() => parseContractBody('CreateRunRequest', body, { limits }))).toEqual({
      code: 'VALIDATION_FAILED',
      details: { field: 'input.contextRefs[0].ref', limit: 'maxContextRefChars', maxContextRefChars: 4, actual: 6 },
    });
  });

  it('counts characters in UTF-16 code units, as every published limit does', () => {
    // Three emoji are 3 code points but 6 code units: over a limit of 5.
    expect(problemOf(() => parseContractBody('CancelRunRequest', { reason: '😀😀😀' }, { limits }))).toEqual({
      code: 'VALIDATION_FAILED',
      details: { field: 'reason', limit: 'maxReasonChars', maxReasonChars: 5, actual: 6 },
    });
  });

  it('names the x-field of a member for what is wrong inside it, and `body` for a body that is no object', () => {
    const badRef = { agentVersionId: 'agv_1', input: { ...input, contextRefs: [{ ref: 7 }] } };
    expect(problemOf(() => parseContractBody('CreateRunRequest', badRef, { limits })).details).toEqual({
      field: 'input.contextRefs',
    });
    const noText = { content: [{ type: 'text' }] };
    expect(problemOf(() => parseContractBody('AddInputRequest', noText, { limits })).details).toEqual({
      field: 'content.text',
    });
    expect(problemOf(() => parseContractBody('AddInputRequest', [input], { limits })).details).toEqual({
      field: 'body',
    });
  });

  it('prefixes the paths of a member checked apart with its name', () => {
    const tools = [{ name: 'bad name', description: 'd', parameters: {} }];
    const limitsWithTools = {
      ...limits,
      maxBrowserTools: 4,
      maxBrowserToolDescriptionChars: 10,
      maxContextTitleChars: 9,
    };
    const problem = problemOf(() =>
      parseContractBody('BrowserTools', tools, { limits: limitsWithTools, rootField: 'browserTools' }),
    );
    expect(problem.details).toEqual({ field: 'browserTools[0].name' });
  });

  it('lets a violation hook answer with another problem: a part that is not text is unsupported content', () => {
    const image = { content: [{ type: 'image', url: 'x' }] };
    const problem = problemOf(() =>
      parseContractBody('AddInputRequest', image, { limits, onViolation: refuseUnsupportedContent }),
    );
    expect(problem).toEqual({ code: 'UNSUPPORTED_CONTENT', details: { type: 'image', contentTypes: ['text'] } });
  });
});

import { noChange } from 'lit';
import { Directive, directive, type ChildPart } from 'lit/directive.js';
import { setCommittedValue } from 'lit/directive-helpers.js';

/**
 * Renders one transcript row keyed by its id and re-templated only when one of its inputs changed
 * (compared by identity, as state objects are replaced, never mutated). A new key drops the old
 * row's DOM first, so no state carries over to another item (Lit's `keyed` and `guard` in one).
 */
class TranscriptRowDirective extends Directive {
  #key: string | null = null;
  #inputs: readonly unknown[] | null = null;

  render(_key: string, _inputs: readonly unknown[], template: () => unknown): unknown {
    return template();
  }

  override update(part: ChildPart, [key, inputs, template]: [string, readonly unknown[], () => unknown]): unknown {
    if (key !== this.#key) {
      setCommittedValue(part);
      this.#key = key;
      this.#inputs = null;
    }
    const previous = this.#inputs;
    if (previous && previous.length === inputs.length && inputs.every((input, index) => input === previous[index]))
      return noChange;
    this.#inputs = inputs;
    return template();
  }
}

/** Directive: `transcriptRow(key, inputs, template)` renders `template()` again only for a new key or changed inputs. */
export const transcriptRow = directive(TranscriptRowDirective);

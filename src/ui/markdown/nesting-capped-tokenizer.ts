import { Tokenizer } from 'marked';
import type { Tokens } from 'marked';

/** Token trees deeper than this (blockquotes, lists, inline) render as escaped plain text. */
export const MARKDOWN_MAX_DEPTH = 32;

/**
 * The deepest token level a blockquote or list item may sit at: one paragraph and its text must
 * still fit under it within `MARKDOWN_MAX_DEPTH`, so a container the cap refuses is one whose
 * content would have gone over the depth limit anyway.
 */
export const MARKDOWN_MAX_CONTAINER_DEPTH = MARKDOWN_MAX_DEPTH - 2;

/**
 * marked's tokenizer with a cap on how deep blockquotes and lists nest: a container that would sit
 * below `MARKDOWN_MAX_CONTAINER_DEPTH` token levels is not opened, so its marker and the rest of
 * its text stay in a paragraph of the container above. Lexing then does a bounded amount of work
 * per character, where marked alone recurses once per level (20,000 nested `>` took 0.4 s before
 * overflowing the stack). Use one instance per lex (one that threw is done).
 */
export class NestingCappedTokenizer extends Tokenizer {
  /** Token levels of the containers open around the text being lexed. */
  #depth = 0;

  override blockquote(source: string): Tokens.Blockquote | undefined {
    return this.#nest(1, () => super.blockquote(source));
  }

  /** A list costs two levels: the list and its items. */
  override list(source: string): Tokens.List | undefined {
    return this.#nest(2, () => super.list(source));
  }

  #nest<T>(levels: number, lex: () => T | undefined): T | undefined {
    this.#depth += levels;
    // A throw ends the whole lex, and with it this instance's use: no need to restore the depth then.
    const token = this.#depth > MARKDOWN_MAX_CONTAINER_DEPTH ? undefined : lex();
    this.#depth -= levels;
    return token;
  }
}

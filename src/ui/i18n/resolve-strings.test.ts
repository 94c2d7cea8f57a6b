import { afterEach, describe, expect, it } from 'vitest';
import { ZH_CN_STRINGS } from '../../locales/zh-cn.ts';
import { EN_STRINGS } from './en.ts';
import { findLocalePack } from './locale-packs.ts';
import { EN_TURN_STRINGS } from './en-turn-actions.ts';
import { EN_COMPOSER_EXTRAS_STRINGS } from './en-composer-extras.ts';
import { EN_WIDGET_STRINGS } from './en-widgets.ts';
import { EN_TOOL_CARD_STRINGS } from './en-tool-cards.ts';
import { formatString, resolveStrings } from './resolve-strings.ts';

afterEach(() => {
  globalThis.AgentChatLocales = undefined;
});

describe('resolveStrings', () => {
  it('gives Simplified Chinese to every zh tag once agent-chat/locales/zh-cn is imported, English otherwise', () => {
    expect(resolveStrings('zh-CN')).toEqual(ZH_CN_STRINGS);
    expect(resolveStrings('zh')).toEqual(ZH_CN_STRINGS);
    expect(resolveStrings('zh-TW')).toEqual(ZH_CN_STRINGS);
    expect(resolveStrings('en-GB')).toBe(EN_STRINGS);
    expect(resolveStrings('ar')).toBe(EN_STRINGS);
    expect(resolveStrings('en', { send: 'Go' })).toEqual({ ...EN_STRINGS, send: 'Go' });
    expect(resolveStrings('zh-CN', { send: '发出' })).toEqual({ ...ZH_CN_STRINGS, send: '发出' });
  });

  it('reads a script-tag pack from AgentChatLocales, keeping English for keys it lacks and non-string values', () => {
    globalThis.AgentChatLocales = { 'fr-FR': { send: 'Envoyer', stop: 42 as unknown as string } };
    expect(resolveStrings('fr')).toEqual({ ...EN_STRINGS, send: 'Envoyer' });
    expect(resolveStrings('fr-CA')).toEqual({ ...EN_STRINGS, send: 'Envoyer' });
    expect(resolveStrings('de')).toBe(EN_STRINGS);
  });

  it('prefers the exact tag over another pack of the same language', () => {
    globalThis.AgentChatLocales = { 'pt-PT': { send: 'Enviar (PT)' }, 'pt-BR': { send: 'Enviar (BR)' } };
    expect(findLocalePack('pt-BR')).toEqual({ send: 'Enviar (BR)' });
    expect(findLocalePack('PT-pt')).toEqual({ send: 'Enviar (PT)' });
  });

  it('translates every English key, the turn actions’, the cards’, the composer extras’ and the widgets’ own included', () => {
    const english = {
      ...EN_STRINGS,
      ...EN_TURN_STRINGS,
      ...EN_TOOL_CARD_STRINGS,
      ...EN_COMPOSER_EXTRAS_STRINGS,
      ...EN_WIDGET_STRINGS,
    };
    expect(Object.keys(ZH_CN_STRINGS).sort()).toEqual(Object.keys(english).sort());
  });
});

describe('formatString', () => {
  it('fills known placeholders and leaves unknown ones', () => {
    expect(formatString('{count} / {max} {unit}', { count: 3, max: 10 })).toBe('3 / 10 {unit}');
  });
});

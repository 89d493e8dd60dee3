/**
 * Stop strings for generation: the earliest occurrence of any stop string ends the
 * generation; the returned text stops just before it (the tokens include the one that
 * completed it, since a token can straddle the boundary).
 */
import type { Generation, TokenId } from './languageModel';

/** Index of the earliest stop string in `text`, or null. */
export function firstStop(text: string, stops: readonly string[] | undefined): number | null {
  let best: number | null = null;
  for (const stop of stops ?? []) {
    if (stop === '') continue;
    const at = text.indexOf(stop);
    if (at >= 0 && (best === null || at < best)) best = at;
  }
  return best;
}

export function finishStop(text: string, at: number, tokens: TokenId[]): Generation {
  return { text: text.slice(0, at), tokens, finishReason: 'stop' };
}

import type { ReactiveControllerHost } from 'lit';
import type { SiblingPart } from '../parts/sibling-part.ts';

/** Gets a sibling part for one render: the part, or undefined while it is not there (loading it when `isWanted`). */
export type PartForRender<Part> = (isWanted: boolean) => Part | undefined;

/**
 * Gets a sibling part (src/parts/sibling-part.ts) for a host's renders: once the part has loaded it is
 * returned, and `onArrive` runs first, once (the part's styles join the host's, and whatever else
 * comes with it); before, the first render that wants it starts loading it and the host renders
 * again when it is there. A file that does not load leaves the part off for good.
 */
export function createPartForRender<Part>(
  host: ReactiveControllerHost,
  part: Pick<SiblingPart<unknown, Part>, 'find' | 'load'>,
  onArrive: (part: Part) => void,
): PartForRender<Part> {
  let hasArrived = false;
  let isLoading = false;
  return (isWanted) => {
    const found = part.find();
    if (found !== undefined) {
      if (!hasArrived) onArrive(found);
      hasArrived = true;
      return found;
    }
    if (isWanted && !isLoading) {
      isLoading = true;
      part.load().then(
        () => host.requestUpdate(),
        () => undefined,
      );
    }
    return undefined;
  };
}

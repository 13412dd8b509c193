// The element's events added and removed with typed handlers, as a page that cleans up does.
import type { InterquakeViewerElement, ViewerEventMap } from 'interquake/viewer';

export function listen(element: InterquakeViewerElement): () => void {
  const onLoad = (event: ViewerEventMap['load']): void => { console.log(event.detail.info.vertices); };
  const onError = (event: ViewerEventMap['error']): void => { console.log(event.detail.code); };
  element.addEventListener('load', onLoad);
  element.addEventListener('error', onError, { once: true });
  return () => {
    element.removeEventListener('load', onLoad);
    element.removeEventListener('error', onError, { capture: false });
  };
}

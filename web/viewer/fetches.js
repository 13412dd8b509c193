// Downloads, one request per URL for the page: every <interquake-viewer> on a page asks here, so
// a .pk3 that several elements (or one element's src, archives and model) name is fetched once
// and its bytes are shared. An entry lives while some content holds it (a Hold: one per load,
// kept by the element as long as the content built from that load is shown) and is dropped when
// the last holder lets go, so memory follows what the page shows. A failed request is not kept
// (a later load asks again).

import { fetchBytes } from './assets.js';

const entries = new Map(); // url -> { promise, holders: Set<Hold>, listeners: Set<fn>, settled }

function forget(url, entry) {
  if (entries.get(url) === entry && !entry.holders.size && entry.settled) entries.delete(url);
}

/** The URLs one load asked for; release() lets them go (the content they built was replaced). */
export class Hold {
  constructor() {
    this.urls = new Set();
  }

  /** The bytes at `url` (fetched by the first asker on the page, shared with the others); `onProgress(0..1)`. */
  get(url, onProgress = () => {}) {
    let entry = entries.get(url);
    if (!entry) {
      entry = { holders: new Set(), listeners: new Set(), settled: false, progress: 0 };
      entries.set(url, entry);
      entry.promise = fetchBytes(url, (p) => {
        entry.progress = p;
        for (const listener of entry.listeners) listener(p);
      }).then((bytes) => {
        entry.settled = true;
        entry.listeners.clear();
        forget(url, entry);
        return bytes;
      }, (err) => {
        if (entries.get(url) === entry) entries.delete(url);
        throw err;
      });
    }
    entry.holders.add(this);
    this.urls.add(url);
    if (entry.settled) onProgress(1);
    else {
      onProgress(entry.progress);
      entry.listeners.add(onProgress);
    }
    return entry.promise;
  }

  release() {
    for (const url of this.urls) {
      const entry = entries.get(url);
      if (!entry) continue;
      entry.holders.delete(this);
      forget(url, entry);
    }
    this.urls.clear();
  }
}

/** The URLs the page holds now (for tests: shared downloads, released ones gone). */
export function heldUrls() {
  return [...entries.keys()];
}

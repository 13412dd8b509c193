// A consumer of the packed package's types, written as README shows the API. Compiled with
// tsc --strict --noEmit under several module resolutions (tests/package/types.test.mjs); the lines
// marked as expected errors must stay errors, so a type that lets them through fails the test.
import { init, Model, Instance, Interquake, InterquakeError, DEFAULT_FRAMERATE } from 'interquake';
import type { ErrorCode, Playhead } from 'interquake';
import * as embedded from 'interquake/embedded';
import { InterquakeViewerElement } from 'interquake/viewer';
import type { ViewerEventMap } from 'interquake/viewer';

export async function loadOne(bytes: Uint8Array): Promise<Model | InterquakeError> {
  const iq: Interquake = await init({ simd: false });
  const other: Interquake = await embedded.init();
  const codes: readonly ErrorCode[] = iq.errorCodes;
  const rates: number = iq.defaultFramerate + iq.md3Framerate + DEFAULT_FRAMERATE + codes.length + other.liveBytes;
  let result: Model | InterquakeError;
  try {
    result = iq.load(bytes, { name: 'critter.iqm' });
  } catch (err) {
    if (!(err instanceof InterquakeError)) throw err;
    const code: ErrorCode = err.code;
    result = new InterquakeError(code, `${err.message} (${rates})`, { offset: err.offset, line: err.line, column: err.column, file: err.file });
  }
  if (result instanceof Model) {
    const instance: Instance = result.createInstance();
    instance.evaluate(0.5);
    const skin: Float32Array | null = instance.pose(0, 0.25, { layout: '4x4' }).skinMatrices;
    const owner: Model = instance.model;
    instance[Symbol.dispose]();
    const head: Playhead = owner.clipAt({ firstFrame: 0, frameCount: 2, framerate: 10, loop: true }, 0.3);
    const byIndex: Float32Array | null = result.tagMatrix(0, head.frameA);
    const between: Float32Array | null = result.tagMatrixBetween('tag_head', 0, 1, 0.5);
    console.log(skin?.length, byIndex?.length, between?.length);
  }
  return result;
}

export async function scoped(bytes: Uint8Array): Promise<number> {
  const iq = await init();
  using model = iq.load(bytes);
  using instance = model.createInstance();
  return model.vertexCount + instance.evaluate().positions!.length;
}

export async function poster(iq: Interquake, files: Map<string, Uint8Array>): Promise<Uint8Array> {
  const player = iq.loadPlayer(files);
  const armed = player.withOptions({ weapon: 'machinegun', lod: 1 });
  armed.dispose();
  const image = await iq.render(player, { width: 256, weapon: 'machinegun', team: 'red', lod: 0, legsAnimation: 'LEGS_RUN' });
  // @ts-expect-error: team is red, blue or null
  await iq.render(player, { team: 'green' });
  player.dispose();
  return iq.encodePNG(image);
}

export function typedErrors(): void {
  // @ts-expect-error: not an error code
  const bad = new InterquakeError('bad_magik', 'x');
  const err = new InterquakeError('bad_magic', 'not a model');
  // @ts-expect-error: comparing with a misspelled code is an error (no overlap)
  if (err.code === 'bad_magik') console.log(bad);
  // @ts-expect-error: classes of the library are made by it, not by users
  new Model();
  // @ts-expect-error: the same for instances
  new Instance();
}

export function viewer(): InterquakeViewerElement {
  const element = document.createElement('interquake-viewer');
  const onLoad = (event: ViewerEventMap['load']): void => { console.log(event.detail.info.vertices, event.detail.format); };
  element.addEventListener('load', onLoad);
  element.addEventListener('error', (event) => { const code: string = event.detail.code; console.log(code); }, { once: true });
  return element;
}

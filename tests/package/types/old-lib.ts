// A consumer whose lib predates Symbol.dispose (es2020): the declarations must still compile.
import { init, Model, InterquakeError } from 'interquake';

export async function vertices(bytes: Uint8Array): Promise<number> {
  try {
    const model = (await init()).load(bytes);
    return model instanceof Model ? model.vertexCount : -1;
  } catch (err) {
    if (err instanceof InterquakeError && err.code === 'bad_magic') return 0;
    throw err;
  }
}

// The Node entry (package.json's `node` condition): the same API as web/interquake.js, and init()
// reads the WASM from disk. Only this file imports a node: module, so browser builds never see one.
import { readFile } from 'node:fs/promises';
import { deflateSync } from 'node:zlib';
import { setFileReader, setDeflate } from './core/wasm.js';
import { setJpegModule } from './core/images.js';

setFileReader(readFile);
setDeflate((bytes, level) => deflateSync(bytes, { level }));
setJpegModule(() => import('jpeg-js')); // JPEG textures of the software renderer (browsers decode their own)

export * from './interquake.js';

// The viewer's WebGL2 renderer: small, on demand, and able to rebuild itself after a lost context.
//
// It draws "parts": a geometry (the model's own typed arrays, read again to refill a restored context)
// placed by a column-major 4x4 matrix, posed either by skin matrices (GPU skinning: row-major 3x4 per
// joint in an RGBA32F texture, one joint per texel row, so there is no small bone cap) or by two
// morph frames and a blend factor (MD3: every frame sits in one vertex buffer and the two frames'
// attribute pointers are re-aimed per draw, so a frame change uploads nothing).
//
// Quake data is Z up with clockwise front faces: the camera uses Z as up and the renderer sets
// frontFace(CW) and culls back faces.

import { DEFAULT_LIGHT } from '../scene/light.js';
import { triangleEdges, WIREFRAME_COLOR } from '../scene/overlays.js';

// The vertex inputs and posing every mesh program shares (this one and the shader-script passes
// of shaderdraw.js, which receives it as text): pose() gives the model-space position and normal.
export const POSE_GLSL = `#version 300 es
precision highp float;
precision highp int;
layout(location = 0) in vec3 aPosition;
layout(location = 1) in vec3 aNormal;
layout(location = 2) in vec2 aTexcoord;
layout(location = 3) in vec4 aColor;
layout(location = 4) in uvec4 aJoints;
layout(location = 5) in vec4 aWeights;
layout(location = 6) in vec3 aPosition2;
layout(location = 7) in vec3 aNormal2;
uniform mat4 uModel;
uniform mat4 uViewProjection;
uniform int uMode;            // 0 static, 1 skinned, 2 morph
uniform float uMorph;         // blend from frame A (aPosition) to frame B (aPosition2)
uniform highp sampler2D uSkin; // row r of joint j at texel (r, j)

mat4 skinMatrix(uint j) {
  int row = int(j);
  vec4 r0 = texelFetch(uSkin, ivec2(0, row), 0);
  vec4 r1 = texelFetch(uSkin, ivec2(1, row), 0);
  vec4 r2 = texelFetch(uSkin, ivec2(2, row), 0);
  // Rows of a row-major 3x4 become the columns of a transposed mat4: p' = p * M.
  return mat4(r0, r1, r2, vec4(0.0, 0.0, 0.0, 1.0));
}

void pose(out vec3 position, out vec3 normal) {
  position = aPosition;
  normal = aNormal;
  if (uMode == 1) {
    mat4 m = skinMatrix(aJoints.x) * aWeights.x + skinMatrix(aJoints.y) * aWeights.y
           + skinMatrix(aJoints.z) * aWeights.z + skinMatrix(aJoints.w) * aWeights.w;
    position = (vec4(position, 1.0) * m).xyz;
    normal = (vec4(normal, 0.0) * m).xyz;
  } else if (uMode == 2) {
    position = mix(aPosition, aPosition2, uMorph);
    normal = mix(aNormal, aNormal2, uMorph);
  }
}
`;

const VERTEX_SHADER = `${POSE_GLSL}
out vec3 vNormal;
out vec2 vTexcoord;
out vec4 vColor;
void main() {
  vec3 position;
  vec3 normal;
  pose(position, normal);
  vNormal = mat3(uModel) * normal;
  vTexcoord = aTexcoord;
  vColor = aColor;
  gl_Position = uViewProjection * uModel * vec4(position, 1.0);
}`;

const FRAGMENT_SHADER = `#version 300 es
precision highp float;
in vec3 vNormal;
in vec2 vTexcoord;
in vec4 vColor;
uniform sampler2D uTexture;
uniform vec3 uLight;          // unit direction towards the light, world space
uniform vec2 uLevels;         // ambient, light intensity
uniform vec4 uFlat;           // a > 0: draw this colour unlit (wireframe)
out vec4 outColor;
void main() {
  if (uFlat.a > 0.0) { outColor = uFlat; return; }
  vec4 base = texture(uTexture, vTexcoord) * vColor;
  vec3 n = normalize(vNormal);
  if (!gl_FrontFacing) n = -n;
  float diffuse = max(dot(n, uLight), 0.0);
  float sky = 0.5 + 0.5 * n.z; // a little more light from above (Z up)
  vec3 lit = base.rgb * (uLevels.x * (0.62 + 0.38 * sky) + uLevels.y * diffuse);
  outColor = vec4(lit, 1.0);
}`;

const LINE_VERTEX_SHADER = `#version 300 es
layout(location = 0) in vec3 aPosition;
layout(location = 1) in vec3 aColor;
uniform mat4 uViewProjection;
out vec3 vColor;
void main() { vColor = aColor; gl_Position = uViewProjection * vec4(aPosition, 1.0); }`;

const LINE_FRAGMENT_SHADER = `#version 300 es
precision mediump float;
in vec3 vColor;
out vec4 outColor;
void main() { outColor = vec4(vColor, 1.0); }`;

// The shader-script drawer, fetched on the first model that has script blocks: beside this file
// unbundled (web/viewer/shaderdraw.js), beside the one-file element bundled (interquake-shaders.min.js).
let shaderModule = null;
export function loadShaderDrawer() {
  const name = /\/viewer\/renderer\.js(\?|#|$)/.test(import.meta.url) ? './shaderdraw.js' : './interquake-shaders.min.js';
  shaderModule ??= import(/* webpackIgnore: true */ /* @vite-ignore */ new URL(name, import.meta.url).href)
    .catch((err) => { shaderModule = null; throw err; });
  return shaderModule;
}

const MODE_STATIC = 0;
const MODE_SKINNED = 1;
const MODE_MORPH = 2;

export class Renderer {
  /** Throws an Error with code 'webgl2_unavailable' when the browser has no WebGL2. */
  constructor(canvas, { preserveDrawingBuffer = false } = {}) {
    this.canvas = canvas;
    const gl = canvas.getContext('webgl2', { antialias: true, alpha: true, premultipliedAlpha: true, preserveDrawingBuffer });
    if (!gl) {
      const error = new Error('this browser cannot create a WebGL2 context');
      error.code = 'webgl2_unavailable';
      throw error;
    }
    this.gl = gl;
    this.drawer = 'webgl';
    this.lost = false;
    this._setup();
  }

  // Everything that lives in the context; run again after a restore.
  _setup() {
    const gl = this.gl;
    this._geometries = new Map(); // geometry object -> GPU buffers
    this._textures = new Map();   // image object -> WebGLTexture
    this._mesh = program(gl, VERTEX_SHADER, FRAGMENT_SHADER);
    this._lines = program(gl, LINE_VERTEX_SHADER, LINE_FRAGMENT_SHADER);
    this._meshUniforms = uniforms(gl, this._mesh, ['uModel', 'uViewProjection', 'uMode', 'uMorph', 'uSkin', 'uTexture', 'uLight', 'uLevels', 'uFlat']);
    this._lineUniforms = uniforms(gl, this._lines, ['uViewProjection']);
    this._white = this._uploadImage({ width: 1, height: 1, data: new Uint8Array([255, 255, 255, 255]) });
    this._skinTexture = gl.createTexture();
    gl.bindTexture(gl.TEXTURE_2D, this._skinTexture);
    setNearest(gl);
    this._skinRows = 0;
    this._lineBuffer = gl.createBuffer();
    this._lineVao = gl.createVertexArray();
    gl.bindVertexArray(this._lineVao);
    gl.bindBuffer(gl.ARRAY_BUFFER, this._lineBuffer);
    gl.enableVertexAttribArray(0);
    gl.vertexAttribPointer(0, 3, gl.FLOAT, false, 24, 0);
    gl.enableVertexAttribArray(1);
    gl.vertexAttribPointer(1, 3, gl.FLOAT, false, 24, 12);
    gl.bindVertexArray(null);
  }

  /** After webglcontextrestored: every GPU object is rebuilt on demand from the CPU copies. */
  restore() {
    try {
      this._setup();
      if (this.shaders) this.useShaders(this._shaderModule, this._shaderLibrary);
      this.lost = false;
    } catch {} // the rebuild failed: still lost, so the element draws in software (software.js)
  }

  /**
   * Draws shader-script surfaces (parts' `shaders`) with shaderdraw.js's createShaderDrawer, given
   * the loaded module and the library functions it calls ({ evaluateStage, env, posed, deform }).
   */
  useShaders(module, library) {
    this._shaderModule = module;
    this._shaderLibrary = library;
    this.shaders = module.createShaderDrawer(this.gl, POSE_GLSL, library, program);
  }

  /** Sizes the drawing buffer to the CSS size times the pixel ratio; true when it changed. */
  resize(cssWidth, cssHeight, pixelRatio = 1) {
    const width = Math.max(1, Math.round(cssWidth * pixelRatio));
    const height = Math.max(1, Math.round(cssHeight * pixelRatio));
    if (this.canvas.width === width && this.canvas.height === height) return false;
    this.canvas.width = width;
    this.canvas.height = height;
    return true;
  }

  /** Forgets the GPU copy of a geometry or image that will not be drawn again. */
  release(object) {
    const gl = this.gl;
    const geometry = this._geometries.get(object);
    if (geometry) {
      this.shaders?.release?.(geometry);
      for (const buffer of geometry.buffers) gl.deleteBuffer(buffer);
      gl.deleteVertexArray(geometry.vao);
      this._geometries.delete(object);
    }
    const texture = this._textures.get(object);
    if (texture) {
      gl.deleteTexture(texture);
      this._textures.delete(object);
    }
  }

  /**
   * Draws one picture.
   * frame.parts: [{ geometry, matrix (column-major 4x4), skin (row-major 3x4 per joint) | null,
   *                 morph: { a, b, t } | null, textures: [image | null per mesh] }]
   * frame.camera: { viewProjection (4x4), eye [x,y,z], axes: { forward, left, up } (world; autosprite) }
   * frame.background: [r, g, b, a] (0..1, not premultiplied)
   * frame.wireframe: draw triangle edges over the shaded model
   * frame.lines: Float32Array of segments (x y z r g b per end) drawn over everything; frame.depthLines: with depth test
   */
  render(frame) {
    if (this.lost || this.gl.isContextLost()) return;
    const gl = this.gl;
    gl.viewport(0, 0, this.canvas.width, this.canvas.height);
    const [r, g, b, a] = frame.background;
    gl.clearColor(r * a, g * a, b * a, a);
    gl.clear(gl.COLOR_BUFFER_BIT | gl.DEPTH_BUFFER_BIT);
    gl.enable(gl.DEPTH_TEST);
    gl.depthFunc(gl.LEQUAL);
    gl.enable(gl.CULL_FACE);
    gl.frontFace(gl.CW);
    gl.cullFace(gl.BACK);

    if (frame.depthLines?.length) this._drawLines(frame.depthLines, frame.camera, true);

    gl.useProgram(this._mesh);
    const u = this._meshUniforms;
    gl.uniformMatrix4fv(u.uViewProjection, false, frame.camera.viewProjection);
    // frame.light: { direction (towards the light, world; null: over the viewer's shoulder), intensity, ambient }
    const light = frame.light ?? {};
    gl.uniform3fv(u.uLight, light.direction ?? frame.camera.light);
    gl.uniform2f(u.uLevels, light.ambient ?? DEFAULT_LIGHT.ambient, light.intensity ?? DEFAULT_LIGHT.intensity);
    gl.uniform1i(u.uTexture, 0);
    gl.uniform1i(u.uSkin, 1);
    const scripted = []; // surfaces a shader script draws (shaderdraw.js), after the plain ones
    for (const part of frame.parts) {
      const gpu = this._geometry(part.geometry);
      gl.bindVertexArray(gpu.vao);
      gl.uniformMatrix4fv(u.uModel, false, part.matrix);
      this._pose(part, gpu);
      gl.uniform4f(u.uFlat, 0, 0, 0, 0);
      const meshes = part.geometry.meshes;
      for (let i = 0; i < meshes.length; i++) {
        if (this.shaders && part.shaders?.[i]) {
          scripted.push({ part, gpu, mesh: meshes[i], shader: part.shaders[i] });
          continue;
        }
        gl.activeTexture(gl.TEXTURE0);
        gl.bindTexture(gl.TEXTURE_2D, part.textures?.[i] ? this._texture(part.textures[i]) : this._white);
        gl.drawElements(gl.TRIANGLES, meshes[i].triangleCount * 3, gl.UNSIGNED_INT, meshes[i].firstTriangle * 12);
      }
      if (frame.wireframe) {
        gl.bindBuffer(gl.ELEMENT_ARRAY_BUFFER, gpu.edges);
        gl.uniform4f(u.uFlat, ...WIREFRAME_COLOR, 1);
        gl.drawElements(gl.LINES, gpu.edgeCount, gl.UNSIGNED_INT, 0);
        gl.bindBuffer(gl.ELEMENT_ARRAY_BUFFER, gpu.indices);
      }
    }
    if (scripted.length) {
      this.shaders.draw(scripted, frame, (part, gpu, uniforms) => this._pose(part, gpu, uniforms), (image) => this._texture(image), this._white);
      gl.useProgram(this._mesh);
    }
    gl.bindVertexArray(null);
    if (frame.lines?.length) this._drawLines(frame.lines, frame.camera, false);
  }

  _pose(part, gpu, u = this._meshUniforms) {
    const gl = this.gl;
    const geometry = part.geometry;
    if (part.skin && geometry.joints) {
      const rows = geometry.jointCount;
      gl.activeTexture(gl.TEXTURE1);
      gl.bindTexture(gl.TEXTURE_2D, this._skinTexture);
      if (this._skinRows !== rows) {
        gl.texImage2D(gl.TEXTURE_2D, 0, gl.RGBA32F, 3, rows, 0, gl.RGBA, gl.FLOAT, part.skin.subarray(0, rows * 12));
        this._skinRows = rows;
      } else {
        gl.texSubImage2D(gl.TEXTURE_2D, 0, 0, 0, 3, rows, gl.RGBA, gl.FLOAT, part.skin.subarray(0, rows * 12));
      }
      gl.uniform1i(u.uMode, MODE_SKINNED);
    } else if (part.morph && geometry.frames) {
      const { a, b, t } = part.morph;
      const stride = geometry.vertexCount * 12;
      gl.bindBuffer(gl.ARRAY_BUFFER, gpu.framePositions);
      gl.vertexAttribPointer(0, 3, gl.FLOAT, false, 0, a * stride);
      gl.vertexAttribPointer(6, 3, gl.FLOAT, false, 0, b * stride);
      gl.bindBuffer(gl.ARRAY_BUFFER, gpu.frameNormals);
      gl.vertexAttribPointer(1, 3, gl.FLOAT, false, 0, a * stride);
      gl.vertexAttribPointer(7, 3, gl.FLOAT, false, 0, b * stride);
      gl.uniform1i(u.uMode, MODE_MORPH);
      gl.uniform1f(u.uMorph, t);
    } else {
      gl.uniform1i(u.uMode, MODE_STATIC);
    }
  }

  _drawLines(lines, camera, depth) {
    const gl = this.gl;
    gl.useProgram(this._lines);
    gl.uniformMatrix4fv(this._lineUniforms.uViewProjection, false, camera.viewProjection);
    gl.bindVertexArray(this._lineVao);
    gl.bindBuffer(gl.ARRAY_BUFFER, this._lineBuffer);
    gl.bufferData(gl.ARRAY_BUFFER, lines, gl.DYNAMIC_DRAW);
    if (!depth) gl.disable(gl.DEPTH_TEST);
    gl.drawArrays(gl.LINES, 0, lines.length / 6);
    gl.enable(gl.DEPTH_TEST);
    gl.bindVertexArray(null);
  }

  _geometry(geometry) {
    let gpu = this._geometries.get(geometry);
    if (gpu) return gpu;
    const gl = this.gl;
    const buffers = [];
    const vao = gl.createVertexArray();
    gl.bindVertexArray(vao);
    const attribute = (location, data, size, type = gl.FLOAT, integer = false) => {
      const buffer = gl.createBuffer();
      buffers.push(buffer);
      gl.bindBuffer(gl.ARRAY_BUFFER, buffer);
      gl.bufferData(gl.ARRAY_BUFFER, data, gl.STATIC_DRAW);
      gl.enableVertexAttribArray(location);
      if (integer) gl.vertexAttribIPointer(location, size, type, 0, 0);
      else gl.vertexAttribPointer(location, size, type, false, 0, 0);
      return buffer;
    };
    gpu = { vao, buffers };
    if (geometry.frames) {
      gpu.framePositions = attribute(0, geometry.frames.positions, 3);
      gl.enableVertexAttribArray(6);
      gl.vertexAttribPointer(6, 3, gl.FLOAT, false, 0, 0);
      gpu.frameNormals = attribute(1, geometry.frames.normals, 3);
      gl.enableVertexAttribArray(7);
      gl.vertexAttribPointer(7, 3, gl.FLOAT, false, 0, 0);
    } else {
      attribute(0, geometry.positions, 3);
      if (geometry.normals) attribute(1, geometry.normals, 3);
      else gl.vertexAttrib3f(1, 0, 0, 1);
    }
    // Named: the shader drawer's deformed surfaces read texcoords and colours from them.
    if (geometry.texcoords) gpu.texcoords = attribute(2, geometry.texcoords, 2);
    else gl.vertexAttrib2f(2, 0, 0);
    if (geometry.colors) gpu.colors = attribute(3, geometry.colors, 4);
    else gl.vertexAttrib4f(3, 1, 1, 1, 1);
    if (geometry.joints) {
      attribute(4, geometry.joints, 4, gl.UNSIGNED_SHORT, true);
      attribute(5, geometry.weights, 4);
    } else {
      gl.vertexAttribI4ui(4, 0, 0, 0, 0);
      gl.vertexAttrib4f(5, 1, 0, 0, 0);
    }
    gpu.indices = gl.createBuffer();
    buffers.push(gpu.indices);
    gl.bindBuffer(gl.ELEMENT_ARRAY_BUFFER, gpu.indices);
    gl.bufferData(gl.ELEMENT_ARRAY_BUFFER, geometry.indices, gl.STATIC_DRAW);
    gl.bindVertexArray(null);
    const edges = triangleEdges(geometry.indices);
    gpu.edges = gl.createBuffer();
    buffers.push(gpu.edges);
    gl.bindBuffer(gl.ELEMENT_ARRAY_BUFFER, gpu.edges);
    gl.bufferData(gl.ELEMENT_ARRAY_BUFFER, edges, gl.STATIC_DRAW);
    gl.bindBuffer(gl.ELEMENT_ARRAY_BUFFER, null);
    gpu.edgeCount = edges.length;
    this._geometries.set(geometry, gpu);
    return gpu;
  }

  _texture(image) {
    let texture = this._textures.get(image);
    if (!texture) {
      texture = this._uploadImage(image);
      this._textures.set(image, texture);
    }
    return texture;
  }

  // image: { width, height, data: RGBA8 top row first } or anything texImage2D takes (ImageBitmap).
  _uploadImage(image) {
    const gl = this.gl;
    const texture = gl.createTexture();
    gl.bindTexture(gl.TEXTURE_2D, texture);
    gl.pixelStorei(gl.UNPACK_ALIGNMENT, 1);
    if (image.data) {
      gl.texImage2D(gl.TEXTURE_2D, 0, gl.RGBA8, image.width, image.height, 0, gl.RGBA, gl.UNSIGNED_BYTE, image.data);
    } else {
      gl.texImage2D(gl.TEXTURE_2D, 0, gl.RGBA8, gl.RGBA, gl.UNSIGNED_BYTE, image);
    }
    const small = image.crisp || (image.width <= 16 && image.height <= 16); // the placeholder checker stays crisp
    gl.generateMipmap(gl.TEXTURE_2D);
    gl.texParameteri(gl.TEXTURE_2D, gl.TEXTURE_MIN_FILTER, small ? gl.NEAREST : gl.LINEAR_MIPMAP_LINEAR);
    gl.texParameteri(gl.TEXTURE_2D, gl.TEXTURE_MAG_FILTER, small ? gl.NEAREST : gl.LINEAR);
    gl.texParameteri(gl.TEXTURE_2D, gl.TEXTURE_WRAP_S, gl.REPEAT);
    gl.texParameteri(gl.TEXTURE_2D, gl.TEXTURE_WRAP_T, gl.REPEAT);
    return texture;
  }

  /** Deletes every GL object this renderer made; the canvas can get a new Renderer afterwards. */
  dispose() {
    const gl = this.gl;
    for (const object of [...this._geometries.keys(), ...this._textures.keys()]) this.release(object);
    gl.deleteTexture(this._white);
    gl.deleteTexture(this._skinTexture);
    gl.deleteBuffer(this._lineBuffer);
    gl.deleteVertexArray(this._lineVao);
    gl.deleteProgram(this._mesh);
    gl.deleteProgram(this._lines);
    this.shaders?.dispose();
    this.shaders = null;
    this.lost = true;
  }
}

function setNearest(gl) {
  gl.texParameteri(gl.TEXTURE_2D, gl.TEXTURE_MIN_FILTER, gl.NEAREST);
  gl.texParameteri(gl.TEXTURE_2D, gl.TEXTURE_MAG_FILTER, gl.NEAREST);
  gl.texParameteri(gl.TEXTURE_2D, gl.TEXTURE_WRAP_S, gl.CLAMP_TO_EDGE);
  gl.texParameteri(gl.TEXTURE_2D, gl.TEXTURE_WRAP_T, gl.CLAMP_TO_EDGE);
}

// Compiles and links a program (the shader-script drawer gets this one too: createShaderDrawer).
function program(gl, vertexSource, fragmentSource) {
  const shader = (type, source) => {
    const s = gl.createShader(type);
    gl.shaderSource(s, source);
    gl.compileShader(s);
    if (!gl.getShaderParameter(s, gl.COMPILE_STATUS) && !gl.isContextLost()) {
      throw new Error(`shader: ${gl.getShaderInfoLog(s)}`);
    }
    return s;
  };
  const p = gl.createProgram();
  gl.attachShader(p, shader(gl.VERTEX_SHADER, vertexSource));
  gl.attachShader(p, shader(gl.FRAGMENT_SHADER, fragmentSource));
  gl.linkProgram(p);
  if (!gl.getProgramParameter(p, gl.LINK_STATUS) && !gl.isContextLost()) throw new Error(`program: ${gl.getProgramInfoLog(p)}`);
  return p;
}

function uniforms(gl, p, names) {
  return Object.fromEntries(names.map((n) => [n, gl.getUniformLocation(p, n)]));
}

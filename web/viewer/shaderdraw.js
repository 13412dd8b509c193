// Draws surfaces whose name is a Quake 3 shader-script block (docs/SHADERS.md): each stage a pass
// with its image, blend, alpha test, depth and cull state, its colour and texture matrices as the
// C computes them per frame (evaluateStage), and the per-vertex forms (vertex colours,
// lightingDiffuse, lightingSpecular, tcGen environment and vector, tcMod turb) in the vertex
// shader with the C's formulas (src/quake3/iq_shader_eval.c). Surfaces with deformVertexes are posed on
// the CPU by the library (morph or skin), deformed by the C (wave, normal, bulge, move) and
// uploaded each frame; autosprite and autosprite2 quads are turned toward the view by the C too
// (iq_shader_autosprite: tr_shade_calc.c's AutospriteDeform, Autosprite2Deform, as the software
// renderer turns them). Fetched only for models with script blocks
// (renderer.js loadShaderDrawer) and bundled alone as interquake-shaders.min.js: it imports only
// core/mat4.js's plain maths, and gets the GL context, the renderer's posing GLSL and program
// linker, and the library's calls as arguments.

import { affineInverse, transformW, normalizeOrUp } from '../core/mat4.js';

const STAGE_VERTEX = `
uniform mat3x2 uBefore;  // the tcMod chain before the first turb (column-major 2x3)
uniform mat3x2 uAfter;   // and after it
uniform vec3 uTurb;      // x 1 when there is a turb, y its phase + time * frequency, z its amplitude
uniform int uTcGen;      // 0 base, 1 environment, 2 vector
uniform vec3 uTcS;
uniform vec3 uTcT;
uniform vec3 uEye;       // the view origin, model space
uniform vec3 uLightDir;  // towards the light, model space
uniform vec3 uSpecular;  // the specular light's origin, model space
uniform vec3 uAmbient;   // bytes
uniform vec3 uDirected;  // bytes
uniform float uIdentityLight;
uniform float uPortalRange;
uniform ivec2 uColorMode; // rgb: 0 uColor, 1 vertex, 2 exactVertex, 3 oneMinusVertex, 4 lightingDiffuse;
                          // alpha: 0 uColor, 1 vertex, 2 oneMinusVertex, 3 lightingSpecular, 4 portal
uniform vec4 uColor;     // the stage colour the C evaluated, 0..1
out vec2 vTexcoord;
out vec4 vColor;

// tr_init.c's sine table, indexed as the C's table_index: (int64)x & 1023.
float sinTable(float x) {
  int i = int(clamp(x, -2.0e9, 2.0e9)) & 1023;
  return sin(float(i) * 6.283185307179586 / 1023.0);
}
// ri.ftol then a byte store, clamped (to_byte); an input colour 0..1 to its byte (unit_byte).
float toByte(float v) { return v > 0.0 ? min(floor(v), 255.0) : 0.0; }
float unitByte(float v) { return toByte(v * 255.0 + 0.5); }

void main() {
  vec3 p;
  vec3 n;
  pose(p, n);
  n = length(n) > 0.0 ? normalize(n) : n;
  vec2 st = aTexcoord;
  gl_Position = uViewProjection * uModel * vec4(p, 1.0);

  if (uTcGen == 1) { // RB_CalcEnvironmentTexCoords
    vec3 v = normalize(uEye - p);
    float d = dot(n, v);
    st = vec2(0.5 + (n.y * 2.0 * d - v.y) * 0.5, 0.5 - (n.z * 2.0 * d - v.z) * 0.5);
  } else if (uTcGen == 2) {
    st = vec2(dot(p, uTcS), dot(p, uTcT));
  }
  st = uBefore * vec3(st, 1.0);
  if (uTurb.x > 0.0) { // RB_CalcTurbulentTexCoords
    st.x += sinTable(((p.x + p.z) / 1024.0 + uTurb.y) * 1024.0) * uTurb.z;
    st.y += sinTable((p.y / 1024.0 + uTurb.y) * 1024.0) * uTurb.z;
  }
  vTexcoord = uAfter * vec3(st, 1.0);

  vec4 c = floor(uColor * 255.0 + 0.5);
  vec4 v = vec4(unitByte(aColor.r), unitByte(aColor.g), unitByte(aColor.b), unitByte(aColor.a));
  if (uColorMode.x == 1) c.rgb = uIdentityLight == 1.0 ? v.rgb : vec3(toByte(v.r * uIdentityLight), toByte(v.g * uIdentityLight), toByte(v.b * uIdentityLight));
  else if (uColorMode.x == 2) c.rgb = v.rgb;
  else if (uColorMode.x == 3) c.rgb = vec3(toByte((255.0 - v.r) * uIdentityLight), toByte((255.0 - v.g) * uIdentityLight), toByte((255.0 - v.b) * uIdentityLight));
  else if (uColorMode.x == 4) { // RB_CalcDiffuseColor
    vec3 ambient = min(uAmbient, vec3(toByte(255.0 * uIdentityLight)));
    float incoming = dot(n, uLightDir);
    vec3 lit = incoming <= 0.0 ? ambient : ambient + incoming * uDirected;
    c.rgb = vec3(toByte(lit.r), toByte(lit.g), toByte(lit.b));
  }
  if (uColorMode.y == 1) c.a = v.a;
  else if (uColorMode.y == 2) c.a = 255.0 - v.a;
  else if (uColorMode.y == 3) { // RB_CalcSpecularAlpha
    vec3 toLight = normalize(uSpecular - p);
    vec3 reflected = n * 2.0 * dot(n, toLight) - toLight;
    vec3 viewer = uEye - p;
    float l = length(viewer) > 0.0 ? dot(reflected, viewer) / length(viewer) : 0.0;
    c.a = l < 0.0 ? 0.0 : toByte(l * l * l * l * 255.0);
  } else if (uColorMode.y == 4) {
    float len = length(p - uEye) / (uPortalRange != 0.0 ? uPortalRange : 256.0);
    c.a = len > 1.0 ? 255.0 : toByte(len * 255.0);
  }
  vColor = c / 255.0;
}`;

const STAGE_FRAGMENT = `#version 300 es
precision highp float;
in vec2 vTexcoord;
in vec4 vColor;
uniform sampler2D uTexture;
uniform int uAlphaFunc;  // 0 all, 1 GT0, 2 LT128, 3 GE128
uniform bool uOpaque;    // no blend: the framebuffer's alpha becomes 1
out vec4 outColor;
void main() {
  vec4 c = texture(uTexture, vTexcoord) * vColor;
  if (uAlphaFunc == 1 && c.a <= 0.0) discard;
  if (uAlphaFunc == 2 && c.a >= 0.5) discard;
  if (uAlphaFunc == 3 && c.a < 0.5) discard;
  outColor = uOpaque ? vec4(c.rgb, 1.0) : c;
}`;

const UNIFORMS = ['uModel', 'uViewProjection', 'uMode', 'uMorph', 'uSkin', 'uBefore', 'uAfter', 'uTurb', 'uTcGen', 'uTcS', 'uTcT',
  'uEye', 'uLightDir', 'uSpecular', 'uAmbient', 'uDirected', 'uIdentityLight', 'uPortalRange', 'uColorMode', 'uColor',
  'uTexture', 'uAlphaFunc', 'uOpaque'];

// Deforms the C applies to vertices (iq_shader_deform_vertices); the autosprites (also the C's,
// iq_shader_autosprite) need the view.
const CPU_DEFORMS = new Set(['wave', 'normal', 'bulge', 'move']);
const SPRITES = new Set(['autosprite', 'autosprite2']);

const RGB_MODES = { vertex: 1, exactVertex: 2, oneMinusVertex: 3, lightingDiffuse: 4 };
const ALPHA_MODES = { vertex: 1, oneMinusVertex: 2, lightingSpecular: 3, portal: 4 };
const ALPHA_FUNCS = { all: 0, GT0: 1, LT128: 2, GE128: 3 };
const TCGENS = { environment: 1, vector: 2 };
// tcMods whose matrix or offset depends on the shader time (scale, transform and entityTranslate,
// with the viewer's still entity, do not).
const TIMED_TCMODS = new Set(['scroll', 'rotate', 'stretch', 'turb']);

/**
 * Whether a block's picture changes with the shader time: a deform the C evaluates, a wave colour
 * or alpha, an animMap of several images, a moving tcMod. The element keeps drawing such blocks
 * while the animation is paused; the others are still pictures.
 */
export function movesWithTime(block) {
  return block.deforms.some((x) => CPU_DEFORMS.has(x.type)) || block.stages.some((stage) => stage.rgbGen === 'wave'
    || stage.alphaGen === 'wave' || (stage.map === 'image' && stage.images.length > 1)
    || stage.tcMods.some((m) => TIMED_TCMODS.has(m.type)));
}

/**
 * A drawer for one GL context. poseGlsl: the renderer's vertex inputs and pose() (POSE_GLSL);
 * library: { evaluateStage(stage, env) (web/quake3/shaders.js bound to the library), env (shaderEnv's
 * defaults), posed(part) ({ positions, normals } of the part as drawn, posed on the CPU by the
 * library), deform(block, env, positions, normals, texcoords) (deformVertices: in place),
 * autosprite(kind, axes, arrays) (autospriteVertices: in place, returns the triangles to draw) }.
 * draw(surfaces, frame, pose, texture, white) draws surfaces
 * ([{ part, gpu, mesh, shader: { block, images } }]) in Quake 3's sort order; gpu carries the
 * renderer's buffers (vao, indices, texcoords, colors). link(gl, vertexSource, fragmentSource): the
 * renderer's one helper that compiles and links a program.
 */
export function createShaderDrawer(gl, poseGlsl, library, link) {
  const program = link(gl, `${poseGlsl}${STAGE_VERTEX}`, STAGE_FRAGMENT);
  const u = Object.fromEntries(UNIFORMS.map((n) => [n, gl.getUniformLocation(program, n)]));
  const factor = (name) => gl[name.slice(3)] ?? gl.ONE; // 'GL_ONE_MINUS_SRC_ALPHA' -> gl.ONE_MINUS_SRC_ALPHA
  const deformed = new Map(); // gpu -> Map(mesh -> the surface's own vertex buffers, see deformedSurface)

  // A surface whose vertices move on the CPU: its vertex range (from its indices), rebased
  // indices, and its own VAO reading the renderer's texcoords and colours at the range's start
  // (autosprite: its own, which the C rewrites with the quads, and the C's triangles).
  function deformedSurface(gpu, geometry, mesh, sprite) {
    let byMesh = deformed.get(gpu);
    if (!byMesh) deformed.set(gpu, byMesh = new Map());
    let d = byMesh.get(mesh);
    if (d) return d;
    const all = geometry.indices.subarray(mesh.firstTriangle * 3, (mesh.firstTriangle + mesh.triangleCount) * 3);
    let lo = Infinity; let hi = -1;
    for (const i of all) { if (i < lo) lo = i; if (i > hi) hi = i; }
    const count = hi - lo + 1;
    const indices = Uint32Array.from(all, (i) => i - lo);
    const vao = gl.createVertexArray();
    gl.bindVertexArray(vao);
    const buffer = (location, size) => {
      const b = gl.createBuffer();
      gl.bindBuffer(gl.ARRAY_BUFFER, b);
      gl.bufferData(gl.ARRAY_BUFFER, count * size * 4, gl.DYNAMIC_DRAW);
      gl.enableVertexAttribArray(location);
      gl.vertexAttribPointer(location, size, gl.FLOAT, false, 0, 0);
      return b;
    };
    const borrowed = (location, source, size) => {
      if (!source) return;
      gl.bindBuffer(gl.ARRAY_BUFFER, source);
      gl.enableVertexAttribArray(location);
      gl.vertexAttribPointer(location, size, gl.FLOAT, false, 0, lo * size * 4);
    };
    d = { lo, count, indices, drawn: indices.length, vao, positions: buffer(0, 3), normals: buffer(1, 3) };
    if (sprite === 'autosprite') {
      // AutospriteDeform rewrites each quad's st and stamps it with its first vertex's colour.
      d.texcoords = buffer(2, 2);
      if (gpu.colors) d.colors = buffer(3, 4);
    } else {
      borrowed(2, gpu.texcoords, 2);
      borrowed(3, gpu.colors, 4);
    }
    d.elements = gl.createBuffer();
    gl.bindBuffer(gl.ELEMENT_ARRAY_BUFFER, d.elements);
    gl.bufferData(gl.ELEMENT_ARRAY_BUFFER, indices, gl.DYNAMIC_DRAW);
    gl.bindVertexArray(null);
    byMesh.set(mesh, d);
    return d;
  }

  function releaseDeformed(gpu) {
    for (const d of deformed.get(gpu)?.values() ?? []) {
      for (const b of [d.positions, d.normals, d.texcoords, d.colors, d.elements]) if (b) gl.deleteBuffer(b);
      gl.deleteVertexArray(d.vao);
    }
    deformed.delete(gpu);
  }

  // Poses the surface's vertices on the CPU (library.posed), deforms them through the C (and turns
  // autosprites toward the view: axes, in the part's space) and uploads them; binds its VAO.
  // posedParts caches each part's pose for one draw.
  function bindDeformed(s, env, sprite, axes, posedParts) {
    const { part, gpu, mesh, shader } = s;
    const geometry = part.geometry;
    const d = deformedSurface(gpu, geometry, mesh, sprite);
    let posed = posedParts.get(part);
    if (!posed) {
      const p = library.posed(part);
      // Copies: the views are of the WASM heap, which the deform calls may grow.
      posed = { positions: Float32Array.from(p.positions), normals: p.normals ? Float32Array.from(p.normals) : new Float32Array(p.positions.length) };
      posedParts.set(part, posed);
    }
    const positions = posed.positions.slice(d.lo * 3, (d.lo + d.count) * 3);
    const normals = posed.normals.slice(d.lo * 3, (d.lo + d.count) * 3);
    const st = geometry.texcoords ? geometry.texcoords.slice(d.lo * 2, (d.lo + d.count) * 2) : d.texcoords ? new Float32Array(d.count * 2) : null;
    if (shader.block.deforms.some((x) => CPU_DEFORMS.has(x.type))) library.deform(shader.block, env, positions, normals, st);
    gl.bindVertexArray(d.vao);
    if (sprite) {
      const colors = d.colors ? geometry.colors.slice(d.lo * 4, (d.lo + d.count) * 4) : null;
      const triangles = library.autosprite(sprite, axes, { positions, normals, texcoords: st, colors, indices: d.indices });
      for (const [buffer, data] of [[d.texcoords, st], [d.colors, colors]]) {
        if (!buffer) continue;
        gl.bindBuffer(gl.ARRAY_BUFFER, buffer);
        gl.bufferSubData(gl.ARRAY_BUFFER, 0, data);
      }
      gl.bindBuffer(gl.ELEMENT_ARRAY_BUFFER, d.elements);
      gl.bufferData(gl.ELEMENT_ARRAY_BUFFER, triangles, gl.DYNAMIC_DRAW);
      d.drawn = triangles.length;
    }
    gl.bindBuffer(gl.ARRAY_BUFFER, d.positions);
    gl.bufferSubData(gl.ARRAY_BUFFER, 0, positions);
    gl.bindBuffer(gl.ARRAY_BUFFER, d.normals);
    gl.bufferSubData(gl.ARRAY_BUFFER, 0, normals);
    if (!gpu.texcoords) gl.vertexAttrib2f(2, 0, 0);
    if (!gpu.colors) gl.vertexAttrib4f(3, 1, 1, 1, 1);
    gl.uniform1i(u.uMode, 0); // posed already
    return d;
  }

  function drawSurface(s, frame, pose, texture, white, posedParts) {
    const { part, gpu, mesh, shader } = s;
    const block = shader.block;
    gl.uniformMatrix4fv(u.uModel, false, part.matrix);
    // The view and the light in the part's model space, where the C's formulas work.
    const inverse = affineInverse(part.matrix);
    const eye = transformW(inverse, frame.camera.eye, 1);
    const light = normalizeOrUp(transformW(inverse, frame.light?.direction ?? frame.camera.light ?? [0, 0, 1], 0));
    const env = { ...library.env, time: frame.shaderTime ?? 0, viewOrigin: eye, lightDir: light };
    const sprite = block.deforms.find((x) => SPRITES.has(x.type))?.type;
    const cpu = sprite || block.deforms.some((x) => CPU_DEFORMS.has(x.type));
    let count = mesh.triangleCount * 3;
    let offset = mesh.firstTriangle * 12;
    if (cpu) {
      // The view's axes in the part's space (Quake 3's axis[0], [1], [2]), for the autosprites.
      const view = frame.camera.axes ?? viewAxes(frame.camera.eye);
      const axes = [view.forward, view.left, view.up].map((a) => normalizeOrUp(transformW(inverse, a, 0)));
      const d = bindDeformed(s, env, sprite, axes, posedParts);
      count = d.drawn;
      offset = 0;
    } else {
      gl.bindVertexArray(gpu.vao);
      pose(part, gpu, u);
    }
    gl.uniform3fv(u.uEye, eye);
    gl.uniform3fv(u.uLightDir, light);
    gl.uniform3fv(u.uSpecular, env.specularOrigin);
    gl.uniform3fv(u.uAmbient, env.ambientLight);
    gl.uniform3fv(u.uDirected, env.directedLight);
    gl.uniform1f(u.uIdentityLight, env.identityLight);
    // cull front (the default) hides back faces; Quake 3's front faces are clockwise (renderer.js).
    if (block.cull === 'none') gl.disable(gl.CULL_FACE);
    else { gl.enable(gl.CULL_FACE); gl.cullFace(block.cull === 'back' ? gl.FRONT : gl.BACK); }
    if (block.flags.includes('polygonOffset')) { gl.enable(gl.POLYGON_OFFSET_FILL); gl.polygonOffset(-1, -2); }
    else gl.disable(gl.POLYGON_OFFSET_FILL);
    for (const stage of block.stages) {
      if (stage.map === 'lightmap') continue; // a model has no lightmap
      const state = library.evaluateStage(stage, env);
      let image = null;
      if (stage.map === 'image') image = shader.images[stage.images[state.frame] ?? stage.images[0]] ?? null;
      gl.activeTexture(gl.TEXTURE0);
      gl.bindTexture(gl.TEXTURE_2D, image ? texture(image) : white);
      const wrap = stage.clamp ? gl.CLAMP_TO_EDGE : gl.REPEAT;
      gl.texParameteri(gl.TEXTURE_2D, gl.TEXTURE_WRAP_S, wrap);
      gl.texParameteri(gl.TEXTURE_2D, gl.TEXTURE_WRAP_T, wrap);
      gl.uniformMatrix3x2fv(u.uBefore, false, state.before);
      gl.uniformMatrix3x2fv(u.uAfter, false, state.after);
      gl.uniform3f(u.uTurb, state.turbCount > 0 ? 1 : 0, state.turbPhase, state.turbAmplitude);
      gl.uniform1i(u.uTcGen, TCGENS[stage.tcGen] ?? 0);
      gl.uniform3fv(u.uTcS, stage.tcGenVectors.slice(0, 3));
      gl.uniform3fv(u.uTcT, stage.tcGenVectors.slice(3, 6));
      gl.uniform1f(u.uPortalRange, stage.portalRange);
      // alphaGen identity after rgbGen vertex takes the vertex alpha (the C's per_vertex says when).
      const alphaMode = ALPHA_MODES[stage.alphaGen] ?? (stage.alphaGen === 'identity' && state.perVertex.alpha ? 1 : 0);
      gl.uniform2i(u.uColorMode, state.perVertex.rgb ? RGB_MODES[stage.rgbGen] ?? 0 : 0, state.perVertex.alpha ? alphaMode : 0);
      gl.uniform4fv(u.uColor, state.color);
      gl.uniform1i(u.uAlphaFunc, ALPHA_FUNCS[stage.alphaFunc] ?? 0);
      const blended = stage.blendSrc !== 'none';
      gl.uniform1i(u.uOpaque, blended ? 0 : 1);
      if (blended) {
        gl.enable(gl.BLEND);
        // The colour as the script says; the framebuffer's alpha (what the page composites) is kept.
        gl.blendFuncSeparate(factor(stage.blendSrc), factor(stage.blendDst), gl.ZERO, gl.ONE);
      } else gl.disable(gl.BLEND);
      gl.depthMask(stage.depthWrite);
      gl.depthFunc(stage.depthFunc === 'equal' ? gl.EQUAL : gl.LEQUAL);
      gl.drawElements(gl.TRIANGLES, count, gl.UNSIGNED_INT, offset);
    }
  }

  return {
    draw(surfaces, frame, pose, texture, white) {
      gl.useProgram(program);
      gl.uniformMatrix4fv(u.uViewProjection, false, frame.camera.viewProjection);
      gl.uniform1i(u.uTexture, 0);
      gl.uniform1i(u.uSkin, 1);
      // Quake 3 draws by the shader's sort (opaque 3, seeThrough 5, blend0 9, additive 10...); the
      // sort is stable, so surfaces of one sort keep the model's order.
      const sorted = surfaces.map((s, i) => ({ s, i })).sort((a, b) => a.s.shader.block.sort - b.s.shader.block.sort || a.i - b.i);
      const posedParts = new Map();
      try {
        for (const { s } of sorted) drawSurface(s, frame, pose, texture, white, posedParts);
      } finally {
        // The renderer's state for what it draws next.
        gl.disable(gl.BLEND);
        gl.disable(gl.POLYGON_OFFSET_FILL);
        gl.depthMask(true);
        gl.depthFunc(gl.LEQUAL);
        gl.enable(gl.CULL_FACE);
        gl.cullFace(gl.BACK);
      }
    },
    movesWithTime,
    /** Forgets the vertex buffers of a geometry's GPU copy (the renderer releases it). */
    release(gpu) { releaseDeformed(gpu); },
    dispose() {
      for (const gpu of [...deformed.keys()]) releaseDeformed(gpu);
      gl.deleteProgram(program);
    },
  };
}

// A view looking from the eye at the origin, Z up: when the camera gives no axes.
function viewAxes(eye) {
  const forward = normalizeOrUp(eye.map((x) => -x));
  const left = normalizeOrUp([-forward[1], forward[0], 0]);
  const up = [forward[1] * left[2] - forward[2] * left[1], forward[2] * left[0] - forward[0] * left[2], forward[0] * left[1] - forward[1] * left[0]];
  return { forward, left, up };
}


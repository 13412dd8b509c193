// Draws surfaces whose name is a Quake 3 shader-script block (docs/SHADERS.md): each stage a pass
// with its image, blend, alpha test, depth and cull state, its colour and texture matrices as the
// C computes them per frame (evaluateStage), and the per-vertex forms (vertex colours,
// lightingDiffuse, lightingSpecular, tcGen environment and vector, tcMod turb) in the vertex
// shader with the C's formulas (src/iq_shader_eval.c). Fetched only for models with script blocks
// (renderer.js loadShaderDrawer) and bundled alone as interquake-shaders.min.js: it imports
// nothing, and gets the GL context, the renderer's posing GLSL and the library's calls as arguments.

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
  gl_Position = uViewProjection * uModel * vec4(p, 1.0);

  vec2 st = aTexcoord;
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

const RGB_MODES = { vertex: 1, exactVertex: 2, oneMinusVertex: 3, lightingDiffuse: 4 };
const ALPHA_MODES = { vertex: 1, oneMinusVertex: 2, lightingSpecular: 3, portal: 4 };
const ALPHA_FUNCS = { all: 0, GT0: 1, LT128: 2, GE128: 3 };
const TCGENS = { environment: 1, vector: 2 };

/**
 * A drawer for one GL context. poseGlsl: the renderer's vertex inputs and pose() (POSE_GLSL);
 * library: { evaluateStage(stage, env) (web/quake3/shaders.js bound to the library), env (shaderEnv's
 * defaults) }. draw(surfaces, frame, pose, texture, white) draws surfaces
 * ([{ part, gpu, mesh, shader: { block, images } }]) in Quake 3's sort order.
 */
export function createShaderDrawer(gl, poseGlsl, library) {
  const program = link(gl, `${poseGlsl}${STAGE_VERTEX}`, STAGE_FRAGMENT);
  const u = Object.fromEntries(UNIFORMS.map((n) => [n, gl.getUniformLocation(program, n)]));
  const factor = (name) => gl[name.slice(3)] ?? gl.ONE; // 'GL_ONE_MINUS_SRC_ALPHA' -> gl.ONE_MINUS_SRC_ALPHA

  function drawSurface(s, frame, pose, texture, white) {
    const { part, gpu, mesh, shader } = s;
    const block = shader.block;
    gl.bindVertexArray(gpu.vao);
    gl.uniformMatrix4fv(u.uModel, false, part.matrix);
    pose(part, gpu, u);
    // The view and the light in the part's model space, where the C's formulas work.
    const inverse = affineInverse(part.matrix);
    const eye = transform(inverse, frame.camera.eye, 1);
    const light = normalize(transform(inverse, frame.light?.direction ?? frame.camera.light ?? [0, 0, 1], 0));
    const env = { ...library.env, time: frame.shaderTime ?? 0, viewOrigin: eye, lightDir: light };
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
      gl.drawElements(gl.TRIANGLES, mesh.triangleCount * 3, gl.UNSIGNED_INT, mesh.firstTriangle * 12);
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
      try {
        for (const { s } of sorted) drawSurface(s, frame, pose, texture, white);
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
    dispose() { gl.deleteProgram(program); },
  };
}

// The inverse of a column-major affine 4x4 (the part's placement: rotation, scale, translation).
function affineInverse(m) {
  const [a, b, c, , d, e, f, , g, h, i] = m;
  const A = e * i - f * h; const B = -(d * i - f * g); const C = d * h - e * g;
  const det = a * A + b * B + c * C;
  if (!det) return [1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, -m[12], -m[13], -m[14], 1];
  const r = [
    A / det, -(b * i - c * h) / det, (b * f - c * e) / det, 0,
    B / det, (a * i - c * g) / det, -(a * f - c * d) / det, 0,
    C / det, -(a * h - b * g) / det, (a * e - b * d) / det, 0,
    0, 0, 0, 1,
  ];
  for (let k = 0; k < 3; k++) r[12 + k] = -(r[k] * m[12] + r[4 + k] * m[13] + r[8 + k] * m[14]);
  return r;
}

function transform(m, v, w) {
  return [0, 1, 2].map((k) => m[k] * v[0] + m[4 + k] * v[1] + m[8 + k] * v[2] + m[12 + k] * w);
}

function normalize(v) {
  const length = Math.hypot(v[0], v[1], v[2]);
  return length > 0 ? v.map((x) => x / length) : [0, 0, 1];
}

function link(gl, vertexSource, fragmentSource) {
  const compile = (type, source) => {
    const s = gl.createShader(type);
    gl.shaderSource(s, source);
    gl.compileShader(s);
    if (!gl.getShaderParameter(s, gl.COMPILE_STATUS) && !gl.isContextLost()) throw new Error(`shader: ${gl.getShaderInfoLog(s)}`);
    return s;
  };
  const p = gl.createProgram();
  gl.attachShader(p, compile(gl.VERTEX_SHADER, vertexSource));
  gl.attachShader(p, compile(gl.FRAGMENT_SHADER, fragmentSource));
  gl.linkProgram(p);
  if (!gl.getProgramParameter(p, gl.LINK_STATUS) && !gl.isContextLost()) throw new Error(`program: ${gl.getProgramInfoLog(p)}`);
  return p;
}

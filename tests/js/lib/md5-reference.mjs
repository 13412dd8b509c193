// An .md5mesh read apart from the library, and its bind pose computed the way Doom 3 computes it:
// each quaternion's w restored as sqrt(|1 - x² - y² - z²|) (idQuat::CalcW), its matrix built as
// idQuat::ToMat3 builds it, and points turned by that matrix transposed (idJointMat keeps idMat3
// transposed), so vertex = Σ bias · (joint position + Mᵀ · weight point). The library instead turns
// (x, y, z, -w) the usual way; the two must agree.

/** The tokens of an MD5 text: words, quoted strings and ( ) { }, comments dropped. */
export function md5Tokens(text) {
  const out = [];
  const re = /\/\/[^\n]*|\/\*[\s\S]*?\*\/|"([^"\n]*)"|([(){}])|([^\s(){}"]+)/g;
  for (const m of text.matchAll(re)) {
    if (m[1] !== undefined) out.push(m[1]);
    else if (m[2] || m[3]) out.push(m[2] || m[3]);
  }
  return out;
}

/** Doom 3's rotation matrix of a file quaternion (rows, as idQuat::ToMat3 fills them). */
export function doomMatrix([x, y, z]) {
  const w = Math.sqrt(Math.abs(1 - (x * x + y * y + z * z)));
  const x2 = x + x; const y2 = y + y; const z2 = z + z;
  const xx = x * x2; const xy = x * y2; const xz = x * z2;
  const yy = y * y2; const yz = y * z2; const zz = z * z2;
  const wx = w * x2; const wy = w * y2; const wz = w * z2;
  return [
    [1 - (yy + zz), xy - wz, xz + wy],
    [xy + wz, 1 - (xx + zz), yz - wx],
    [xz - wy, yz + wx, 1 - (xx + yy)],
  ];
}

/** Every vertex of an .md5mesh in Doom 3's bind pose, in file order (Float64Array, xyz). */
export function doomBindPositions(text) {
  const t = md5Tokens(text);
  let i = 0;
  const num = () => Number(t[i++]);
  const tuple = (n) => { i++; const v = []; for (let k = 0; k < n; k++) v.push(num()); i++; return v; };
  const joints = [];
  const out = [];
  while (i < t.length) {
    const word = t[i++];
    if (word === 'joints') {
      i++; // {
      while (t[i] !== '}') {
        i += 2; // name, parent
        const pos = tuple(3);
        joints.push({ pos, m: doomMatrix(tuple(3)) });
      }
      i++;
    } else if (word === 'mesh') {
      const verts = [];
      const weights = [];
      while (t[i] !== '}') {
        const w = t[i++];
        if (w === 'vert') { i++; tuple(2); verts.push([num(), num()]); }
        else if (w === 'tri') i += 4;
        else if (w === 'weight') { i++; const joint = num(); const bias = num(); weights.push({ joint, bias, p: tuple(3) }); }
        else if (w === 'numverts' || w === 'numtris' || w === 'numweights' || w === 'shader' || w === 'name') i++;
      }
      i++;
      for (const [start, count] of verts) {
        const v = [0, 0, 0];
        for (let k = start; k < start + count; k++) {
          const { joint, bias, p } = weights[k];
          const { pos, m } = joints[joint];
          for (let r = 0; r < 3; r++) v[r] += bias * (pos[r] + m[0][r] * p[0] + m[1][r] * p[1] + m[2][r] * p[2]); // Mᵀ p
        }
        out.push(...v);
      }
    }
  }
  return Float64Array.from(out);
}

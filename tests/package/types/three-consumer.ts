// A three.js user of interquake/three, written as docs/THREE.md shows it. Compiled with tsc --strict
// against @types/three in an app that installed the tarball and three (tests/package/types.test.mjs).
import * as THREE from 'three';
import { InterquakeLoader, Q3PlayerLoader, InterquakeError } from 'interquake/three';
import type { InterquakeResult, Q3Player, InterquakeClipData } from 'interquake/three';
import { init } from 'interquake';

export async function show(scene: THREE.Scene, dropped: Map<string, string>): Promise<number> {
  const manager = new THREE.LoadingManager();
  manager.setURLModifier((url: string) => dropped.get(url.split('/').pop() ?? '') ?? url);
  const loader = new InterquakeLoader(manager).setWasmPath('/wasm/');
  await loader.preload();
  const gltfLike: InterquakeResult = await loader.loadAsync('models/mrfixit.iqm');
  scene.add(gltfLike.scene);
  const mixer = new THREE.AnimationMixer(gltfLike.scene);
  const clip: THREE.AnimationClip = gltfLike.animations[0];
  const data = clip.userData as InterquakeClipData;
  const action = mixer.clipAction(clip);
  if (data.loop === 'once') action.setLoop(THREE.LoopOnce, 1);
  action.play();
  gltfLike.tags.tag_weapon?.add(new THREE.Object3D());
  const bones: THREE.Bone[] = gltfLike.skeleton?.bones ?? [];
  const more: THREE.AnimationClip[] = await loader.loadAnimations('guyanim.iqm', gltfLike);
  loader.load('x.iqm', (r) => r.dispose(), undefined, (err) => {
    if (err instanceof InterquakeError) console.log(err.code);
  });

  const players = new Q3PlayerLoader(manager).setLibrary(await init()).setOptions({ skin: 'red', lod: 0 });
  const sarge: Q3Player = await players.loadAsync(['pak0.pk3', 'pak2-players.pk3']);
  scene.add(sarge.root);
  sarge.setLegsAnimation('LEGS_RUN');
  sarge.setTorsoAnimation('TORSO_ATTACK');
  sarge.playGesture();
  sarge.setPlaybackRate(0.5);
  await sarge.setSkin('blue');
  await sarge.setWeapon('machinegun');
  sarge.update(1 / 60);
  sarge.tags.upper?.tag_weapon?.add(new THREE.Mesh());
  const fromFiles: Q3Player = await players.parseAsync({ 'lower.md3': new Uint8Array(1) }, { player: 'models/players/sarge' });
  fromFiles.dispose();
  // @ts-expect-error the loader takes no number
  players.setOptions({ skin: 3 });
  return bones.length + more.length + mixer.time + sarge.animations.length;
}

# Imports a GLB with Blender's own glTF importer, headless, and prints what it made as one JSON line:
# objects by type, armatures with their bone counts, actions with their frame ranges, meshes with
# their shape keys, materials and images.
#
#   blender -b --factory-startup --python tools/blender-import.py -- FILE.glb
#
# Debian 12's blender 3.4 ships an importer that still calls numpy.bool, which numpy 1.24 removed
# (AttributeError inside BlenderNode.create_vnode). numpy.bool was only ever an alias of Python's
# bool, so the alias is put back before the importer runs; nothing in Blender is changed.
import json
import sys

import numpy

if "bool" not in numpy.__dict__:  # (hasattr would trigger numpy's deprecation warning)
    numpy.bool = bool

import bpy


def main():
    args = sys.argv[sys.argv.index("--") + 1:] if "--" in sys.argv else []
    if len(args) != 1:
        print("usage: blender -b --factory-startup --python tools/blender-import.py -- FILE.glb", file=sys.stderr)
        sys.exit(2)
    # the factory scene's cube, light and camera would be counted with ours
    for obj in list(bpy.data.objects):
        bpy.data.objects.remove(obj)
    # and its default material and images (Render Result, ...): only what the import adds is reported
    before = {"materials": set(bpy.data.materials.keys()), "images": set(bpy.data.images.keys())}
    result = bpy.ops.import_scene.gltf(filepath=args[0])
    if "FINISHED" not in result:
        print("import failed:", result, file=sys.stderr)
        sys.exit(1)
    types = {}
    for obj in bpy.data.objects:
        types[obj.type] = types.get(obj.type, 0) + 1
    meshes = [o for o in bpy.data.objects if o.type == "MESH"]
    keyed = [o for o in meshes if o.data.shape_keys]
    report = {
        "file": args[0],
        "objects": len(bpy.data.objects),
        "types": types,
        "armatures": [{"name": o.name, "bones": len(o.data.bones)} for o in bpy.data.objects if o.type == "ARMATURE"],
        "actions": len(bpy.data.actions),
        "actionNames": [a.name for a in bpy.data.actions][:8],
        "actionFrames": [list(a.frame_range) for a in bpy.data.actions][:8],
        "meshesWithShapeKeys": len(keyed),
        "shapeKeys": sum(len(o.data.shape_keys.key_blocks) - 1 for o in keyed),
        "mostShapeKeys": max((len(o.data.shape_keys.key_blocks) - 1 for o in keyed), default=0),
        "vertices": sum(len(o.data.vertices) for o in meshes),
        "vertexGroups": max((len(o.vertex_groups) for o in meshes), default=0),
        "materials": [m.name for m in bpy.data.materials if m.name not in before["materials"]],
        "images": [[i.name, list(i.size)] for i in bpy.data.images if i.name not in before["images"]],
    }
    print("IQ_BLENDER " + json.dumps(report))


main()

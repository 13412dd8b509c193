/* What every WASM build has (interquake.wasm, the viewer's, the shaders'): the
 * heap, and the tables JS reads at init (web/core/wasm.js): the layout table
 * (every record JS reads or writes, field by field) and the constant table
 * (enum values, error and warning names, limits), so no JS file knows a number
 * that C defines. The exports that take these records are in iq_wasm*.c. */
#include "wasm/iq_wasm_internal.h"
#include "base/iq_internal.h"
#include "quake3/iq_quake3.h"
#include "formats/iq_cubecfg.h"
#include "write/iq_gltf.h"
#include "quake3/iq_shader.h"
#include "render/iq_render.h"
#include <stddef.h>
#include <stdlib.h>

// -- The heap: JS allocates the memory calls read and write

IQ_EXPORT void *iq_wasm_alloc(uint32_t size) { return malloc(size ? size : 1); }
IQ_EXPORT void iq_wasm_free(void *p) { free(p); }

// -- The layout table: every record JS reads or writes, field by field

enum { T_U8 = 1, T_U16, T_U32, T_I32, T_U64, T_I64, T_F32, T_F64, T_PTR, T_STR, T_CHARS, T_REC };

typedef struct iq_wasm_field {
    const char *record, *field; /* field "" describes the record itself: its size in `offset` */
    uint32_t offset, type, count; /* count: array length (chars for T_CHARS) */
    const char *of;             /* T_REC: the record type of the field */
} iq_wasm_field;

#define SIZEOF_ARRAY(type, member) (sizeof(((type *)0)->member) / sizeof(((type *)0)->member[0]))
#define REC(type) {#type, "", sizeof(type), 0, 0, NULL},
#define F(type, js, member, t) {#type, #js, offsetof(type, member), T_##t, 1, NULL},
#define A(type, js, member, t) {#type, #js, offsetof(type, member), T_##t, SIZEOF_ARRAY(type, member), NULL},
#define R(type, js, member, rec, n) {#type, #js, offsetof(type, member), T_REC, n, #rec},

static const iq_wasm_field layout[] = {
    REC(iq_error) F(iq_error, code, code, U32) F(iq_error, offset, offset, I64) F(iq_error, line, line, U32)
    F(iq_error, column, column, U32) A(iq_error, message, message, CHARS)

    REC(iq_mesh) F(iq_mesh, name, name, STR) F(iq_mesh, material, material, STR)
    F(iq_mesh, firstVertex, first_vertex, U32) F(iq_mesh, vertexCount, vertex_count, U32)
    F(iq_mesh, firstTriangle, first_triangle, U32) F(iq_mesh, triangleCount, triangle_count, U32)

    REC(iq_joint) F(iq_joint, name, name, STR) F(iq_joint, parent, parent, I32)
    A(iq_joint, translate, bind.translate, F32) A(iq_joint, rotate, bind.rotate, F32) A(iq_joint, scale, bind.scale, F32)

    REC(iq_transform)

    REC(iq_animation) F(iq_animation, name, name, STR) F(iq_animation, firstFrame, first_frame, U32)
    F(iq_animation, frameCount, frame_count, U32) F(iq_animation, framerate, framerate, F32)
    F(iq_animation, flags, flags, U32)

    REC(iq_bounds) A(iq_bounds, min, min, F32) A(iq_bounds, max, max, F32) F(iq_bounds, xyRadius, xy_radius, F32)
    F(iq_bounds, radius, radius, F32)

    REC(iq_custom_array) F(iq_custom_array, name, name, STR) F(iq_custom_array, type, type, U32)
    F(iq_custom_array, format, format, U32) F(iq_custom_array, size, size, U32) F(iq_custom_array, data, data, PTR)

    REC(iq_extension) F(iq_extension, name, name, STR) F(iq_extension, size, size, U32) F(iq_extension, data, data, PTR)

    REC(iq_warning) F(iq_warning, code, code, U32) A(iq_warning, message, message, CHARS)

    REC(iq_frame_info) F(iq_frame_info, name, name, STR) A(iq_frame_info, localOrigin, local_origin, F32)
    F(iq_frame_info, interval, interval, F32)

    REC(iq_model_image) F(iq_model_image, name, name, STR) F(iq_model_image, width, width, U32)
    F(iq_model_image, height, height, U32) F(iq_model_image, data, data, PTR) F(iq_model_image, skin, skin, U32)
    F(iq_model_image, interval, interval, F32)

    REC(iq_shader) F(iq_shader, name, name, STR) F(iq_shader, index, index, I32) F(iq_shader, mesh, mesh, U32)

    REC(iq_image) F(iq_image, width, width, U32) F(iq_image, height, height, U32) F(iq_image, data, data, PTR)

    REC(iq_model) F(iq_model, format, format, U32) F(iq_model, vertexCount, vertex_count, U32)
    F(iq_model, triangleCount, triangle_count, U32) F(iq_model, meshCount, mesh_count, U32)
    F(iq_model, jointCount, joint_count, U32) F(iq_model, frameCount, frame_count, U32)
    F(iq_model, animationCount, animation_count, U32) F(iq_model, customArrayCount, custom_array_count, U32)
    F(iq_model, extensionCount, extension_count, U32) F(iq_model, warningCount, warning_count, U32)
    F(iq_model, positions, positions, PTR) F(iq_model, normals, normals, PTR) F(iq_model, texcoords, texcoords, PTR)
    F(iq_model, tangents, tangents, PTR) F(iq_model, colors, colors, PTR) F(iq_model, blendIndices, blend_indices, PTR)
    F(iq_model, blendWeights, blend_weights, PTR) F(iq_model, indices, indices, PTR)
    F(iq_model, adjacency, adjacency, PTR) F(iq_model, meshes, meshes, PTR) F(iq_model, joints, joints, PTR)
    F(iq_model, inverseBind, inverse_bind, PTR) F(iq_model, framePoses, frame_poses, PTR)
    F(iq_model, animations, animations, PTR) F(iq_model, frameBounds, frame_bounds, PTR)
    R(iq_model, bounds, bounds, iq_bounds, 1) F(iq_model, customArrays, custom_arrays, PTR)
    F(iq_model, extensions, extensions, PTR) F(iq_model, comment, comment, PTR)
    F(iq_model, commentSize, comment_size, U32) F(iq_model, warnings, warnings, PTR)
    F(iq_model, framePositions, frame_positions, PTR) F(iq_model, frameNormals, frame_normals, PTR)
    F(iq_model, frameInfo, frame_info, PTR) F(iq_model, tagCount, tag_count, U32)
    F(iq_model, tagNames, tag_names, PTR) F(iq_model, tagTransforms, tag_transforms, PTR)
    F(iq_model, shaderCount, shader_count, U32) F(iq_model, shaders, shaders, PTR)
    F(iq_model, imageCount, image_count, U32) F(iq_model, images, images, PTR)

    REC(iq_instance) F(iq_instance, skinnedPositions, skinned_positions, PTR)
    F(iq_instance, skinnedNormals, skinned_normals, PTR) F(iq_instance, skinnedTangents, skinned_tangents, PTR)
    F(iq_instance, skinMatrices, skin_matrices, PTR) F(iq_instance, skinMatrices4x4, skin_matrices_4x4, PTR)
    F(iq_instance, worldMatrices, world_matrices, PTR) F(iq_instance, localPoses, local_poses, PTR)

    REC(iq_playhead) F(iq_playhead, frameA, frame_a, U32) F(iq_playhead, frameB, frame_b, U32)
    F(iq_playhead, blend, blend, F64) F(iq_playhead, position, position, F32) F(iq_playhead, duration, duration, F64)
    F(iq_playhead, loops, loops, I32) F(iq_playhead, finished, finished, U32) F(iq_playhead, frameCount, frame_count, U32)

    REC(iq_play) F(iq_play, animation, animation, U32) F(iq_play, time, time, F64) F(iq_play, loop, opts.loop, U32)
    F(iq_play, framerate, opts.framerate, F64) F(iq_play, speed, opts.speed, F64) F(iq_play, flags, opts.flags, U32)

    REC(iq_wasm_pose_args) R(iq_wasm_pose_args, play, play, iq_play, 1) R(iq_wasm_pose_args, blend, blend, iq_play, 1)
    F(iq_wasm_pose_args, weight, weight, F32) F(iq_wasm_pose_args, hasBlend, has_blend, U32)
    F(iq_wasm_pose_args, skin, skin, U32)

    REC(iq_q3_animation) F(iq_q3_animation, firstFrame, first_frame, I32)
    F(iq_q3_animation, frameCount, frame_count, U32) F(iq_q3_animation, loopFrames, loop_frames, U32)
    F(iq_q3_animation, fps, fps, F32) F(iq_q3_animation, frameLerp, frame_lerp, U32)
    F(iq_q3_animation, reversed, reversed, U32) F(iq_q3_animation, fromFile, from_file, U32)
    F(iq_q3_animation, line, line, U32)

    REC(iq_q3_config) R(iq_q3_config, animations, animations, iq_q3_animation, IQ_Q3_ANIMATION_COUNT)
    F(iq_q3_config, tableEntries, table_entries, U32) F(iq_q3_config, legsSkip, legs_skip, I32)
    F(iq_q3_config, sex, sex, U32) F(iq_q3_config, footsteps, footsteps, U32)
    A(iq_q3_config, headOffset, head_offset, F32) F(iq_q3_config, fixedLegs, fixed_legs, U32)
    F(iq_q3_config, fixedTorso, fixed_torso, U32) F(iq_q3_config, warningCount, warning_count, U32)
    A(iq_q3_config, warning, warning, CHARS)

    REC(iq_skin_surface) A(iq_skin_surface, name, name, CHARS) A(iq_skin_surface, shader, shader, CHARS)
    F(iq_skin_surface, line, line, U32)

    REC(iq_skin) F(iq_skin, surfaceCount, surface_count, U32) F(iq_skin, warningCount, warning_count, U32)
    A(iq_skin, warning, warning, CHARS) R(iq_skin, surfaces, surfaces, iq_skin_surface, IQ_SKIN_MAX_SURFACES)

    REC(iq_zip_limits) F(iq_zip_limits, maxEntries, max_entries, U32)
    F(iq_zip_limits, maxNameLength, max_name_length, U32) F(iq_zip_limits, maxTotalSize, max_total_size, U64)
    F(iq_zip_limits, maxRatio, max_ratio, U32)

    REC(iq_zip_entry) F(iq_zip_entry, nameOffset, name_offset, U32) F(iq_zip_entry, nameLength, name_length, U32)
    F(iq_zip_entry, dataOffset, data_offset, U32) F(iq_zip_entry, compressedSize, compressed_size, U32)
    F(iq_zip_entry, uncompressedSize, uncompressed_size, U32) F(iq_zip_entry, crc32, crc32, U32)
    F(iq_zip_entry, method, method, U16) F(iq_zip_entry, flags, flags, U16)
    F(iq_zip_entry, localOffset, local_offset, U32)

    REC(iq_zip_directory) F(iq_zip_directory, archiveSize, archive_size, U64)
    F(iq_zip_directory, offset, offset, U64) F(iq_zip_directory, size, size, U64)
    F(iq_zip_directory, endRecord, end_record, U64) F(iq_zip_directory, entryCount, entry_count, U32)

    REC(iq_zip) F(iq_zip, entryCount, entry_count, U32) F(iq_zip, entries, entries, PTR)
    F(iq_zip, totalSize, total_size, U64) F(iq_zip, warningCount, warning_count, U32) A(iq_zip, warning, warning, CHARS)
    R(iq_zip, directory, directory, iq_zip_directory, 1) F(iq_zip, names, names, PTR)

#ifndef IQ_WASM_ELEMENT
    /* Records of exports the element's builds (interquake-viewer.wasm, interquake-readers.wasm)
     * leave out: model .cfg files and shader scripts (in interquake-shaders.wasm for the element),
     * the glTF writer and the software renderer (interquake.wasm only). Their JS never asks for
     * them there; leaving them out keeps a plain model's page within its budget. */
    REC(iq_cubecfg_word) F(iq_cubecfg_word, offset, offset, U32) F(iq_cubecfg_word, length, length, U32)
    F(iq_cubecfg_word, line, line, U32) F(iq_cubecfg_word, column, column, U32) F(iq_cubecfg_word, kind, kind, U32)
    F(iq_cubecfg_word, command, command, U32)

    REC(iq_cubecfg_command) F(iq_cubecfg_command, parent, parent, I32) F(iq_cubecfg_command, line, line, U32)
    F(iq_cubecfg_command, column, column, U32) F(iq_cubecfg_command, wordCount, word_count, U32)

    REC(iq_cubecfg) F(iq_cubecfg, wordCount, word_count, U32) F(iq_cubecfg, commandCount, command_count, U32)
    F(iq_cubecfg, warningCount, warning_count, U32) A(iq_cubecfg, warning, warning, CHARS)
    R(iq_cubecfg, words, words, iq_cubecfg_word, IQ_CUBECFG_MAX_WORDS) R(iq_cubecfg, commands, commands, iq_cubecfg_command, IQ_CUBECFG_MAX_COMMANDS)

    /* glTF scenes: JS writes these (strings and arrays are heap pointers it owns; a part's
     * `model` is written as a model handle, see iq_wasm_write_glb) */
    REC(iq_gltf_material) F(iq_gltf_material, name, name, PTR) F(iq_gltf_material, image, image, PTR)
    F(iq_gltf_material, imageSize, image_size, U32) F(iq_gltf_material, imageMime, image_mime, PTR)
    F(iq_gltf_material, alphaMode, alpha_mode, U32) F(iq_gltf_material, alphaCutoff, alpha_cutoff, F32)
    A(iq_gltf_material, baseColor, base_color, F32) F(iq_gltf_material, doubleSided, double_sided, U32)

    REC(iq_gltf_part) F(iq_gltf_part, model, model, PTR) F(iq_gltf_part, name, name, PTR)
    F(iq_gltf_part, attached, attached, U32) F(iq_gltf_part, parent, parent, U32)
    F(iq_gltf_part, attachIndex, attach_index, U32) F(iq_gltf_part, meshMaterials, mesh_materials, PTR)

    REC(iq_gltf_range) F(iq_gltf_range, firstFrame, first_frame, U32) F(iq_gltf_range, frameCount, frame_count, U32)

    REC(iq_gltf_clip) F(iq_gltf_clip, name, name, PTR) F(iq_gltf_clip, framerate, framerate, F32)
    F(iq_gltf_clip, loop, loop, U32) F(iq_gltf_clip, ranges, ranges, PTR)

    REC(iq_gltf_scene) F(iq_gltf_scene, parts, parts, PTR) F(iq_gltf_scene, partCount, part_count, U32)
    F(iq_gltf_scene, materials, materials, PTR) F(iq_gltf_scene, materialCount, material_count, U32)
    F(iq_gltf_scene, clips, clips, PTR) F(iq_gltf_scene, clipCount, clip_count, U32)
    F(iq_gltf_scene, maxMorphTargets, max_morph_targets, U32) F(iq_gltf_scene, front, front, U32)
    F(iq_gltf_scene, scale, scale, F32) F(iq_gltf_scene, floor, floor, F32)
    /* Quake 3 shader scripts (quake3/iq_shader.h; the exports are in wasm/iq_wasm_shader.c) */
    REC(iq_shader_wave) F(iq_shader_wave, func, func, U32) F(iq_shader_wave, base, base, F32)
    F(iq_shader_wave, amplitude, amplitude, F32) F(iq_shader_wave, phase, phase, F32) F(iq_shader_wave, frequency, frequency, F32)
    REC(iq_shader_tcmod) F(iq_shader_tcmod, type, type, U32) A(iq_shader_tcmod, params, params, F32)
    R(iq_shader_tcmod, wave, wave, iq_shader_wave, 1)
    REC(iq_shader_image) F(iq_shader_image, name, name, STR)
    REC(iq_shader_stage) F(iq_shader_stage, map, map, U32) F(iq_shader_stage, clamp, clamp, U32)
    F(iq_shader_stage, frameCount, frame_count, U32) F(iq_shader_stage, animFrequency, anim_frequency, F32)
    R(iq_shader_stage, images, images, iq_shader_image, IQ_SHADER_MAX_FRAMES)
    F(iq_shader_stage, blendSrc, blend_src, U32) F(iq_shader_stage, blendDst, blend_dst, U32)
    F(iq_shader_stage, alphaFunc, alpha_func, U32) F(iq_shader_stage, depthFunc, depth_func, U32)
    F(iq_shader_stage, depthWrite, depth_write, U32) F(iq_shader_stage, rgbGen, rgb_gen, U32)
    F(iq_shader_stage, alphaGen, alpha_gen, U32) R(iq_shader_stage, rgbWave, rgb_wave, iq_shader_wave, 1)
    R(iq_shader_stage, alphaWave, alpha_wave, iq_shader_wave, 1) A(iq_shader_stage, constant, constant, F32)
    F(iq_shader_stage, tcGen, tcgen, U32) A(iq_shader_stage, tcGenVectors, tcgen_vectors, F32)
    F(iq_shader_stage, tcModCount, tcmod_count, U32) R(iq_shader_stage, tcMods, tcmods, iq_shader_tcmod, IQ_SHADER_MAX_TCMODS)
    F(iq_shader_stage, portalRange, portal_range, F32) F(iq_shader_stage, detail, detail, U32)
    F(iq_shader_stage, line, line, U32)
    REC(iq_shader_deform) F(iq_shader_deform, type, type, U32) F(iq_shader_deform, spread, spread, F32)
    R(iq_shader_deform, wave, wave, iq_shader_wave, 1) A(iq_shader_deform, vector, vector, F32)
    F(iq_shader_deform, bulgeWidth, bulge_width, F32) F(iq_shader_deform, bulgeHeight, bulge_height, F32)
    F(iq_shader_deform, bulgeSpeed, bulge_speed, F32)
    REC(iq_q3_shader) F(iq_q3_shader, name, name, STR) F(iq_q3_shader, line, line, U32) F(iq_q3_shader, column, column, U32)
    F(iq_q3_shader, flags, flags, U32) F(iq_q3_shader, cull, cull, U32) F(iq_q3_shader, sortGiven, sort_given, F32)
    F(iq_q3_shader, sort, sort, F32) F(iq_q3_shader, stageCount, stage_count, U32) F(iq_q3_shader, deformCount, deform_count, U32)
    R(iq_q3_shader, deforms, deforms, iq_shader_deform, IQ_SHADER_MAX_DEFORMS)
    R(iq_q3_shader, stages, stages, iq_shader_stage, IQ_SHADER_MAX_STAGES)
    REC(iq_shader_note) F(iq_shader_note, keyword, keyword, STR) F(iq_shader_note, kind, kind, U32)
    F(iq_shader_note, shader, shader, U32) F(iq_shader_note, line, line, U32) F(iq_shader_note, column, column, U32)
    A(iq_shader_note, detail, detail, CHARS)
    REC(iq_shader_script) F(iq_shader_script, shaderCount, shader_count, U32) F(iq_shader_script, stageCount, stage_count, U32)
    F(iq_shader_script, shaders, shaders, PTR) F(iq_shader_script, noteCount, note_count, U32)
    F(iq_shader_script, notesKept, notes_kept, U32) R(iq_shader_script, notes, notes, iq_shader_note, IQ_SHADER_MAX_NOTES)
    REC(iq_shader_env) F(iq_shader_env, time, time, F64) A(iq_shader_env, entityColor, entity_color, F32)
    A(iq_shader_env, entityTexcoord, entity_texcoord, F32) F(iq_shader_env, identityLight, identity_light, F32)
    A(iq_shader_env, ambientLight, ambient_light, F32) A(iq_shader_env, directedLight, directed_light, F32)
    A(iq_shader_env, lightDir, light_dir, F32) A(iq_shader_env, viewOrigin, view_origin, F32)
    A(iq_shader_env, specularOrigin, specular_origin, F32)
    REC(iq_shader_stage_state) A(iq_shader_stage_state, color, color, F32) F(iq_shader_stage_state, perVertex, per_vertex, U32)
    A(iq_shader_stage_state, before, before, F32) A(iq_shader_stage_state, after, after, F32)
    F(iq_shader_stage_state, turbCount, turb_count, U32) F(iq_shader_stage_state, turbPhase, turb_phase, F32)
    F(iq_shader_stage_state, turbAmplitude, turb_amplitude, F32) F(iq_shader_stage_state, frame, frame, U32)

    /* The software renderer (src/render/iq_render.h) */
    REC(iq_render_texture) F(iq_render_texture, width, width, U32) F(iq_render_texture, height, height, U32)
    F(iq_render_texture, data, data, PTR) F(iq_render_texture, nearest, nearest, U32) F(iq_render_texture, clamp, clamp, U32)
    F(iq_render_texture, mipmapped, mipmapped, U32)
    REC(iq_render_surface) F(iq_render_surface, positions, positions, PTR) F(iq_render_surface, normals, normals, PTR)
    F(iq_render_surface, texcoords, texcoords, PTR) F(iq_render_surface, colors, colors, PTR)
    F(iq_render_surface, vertexCount, vertex_count, U32) F(iq_render_surface, indices, indices, PTR)
    F(iq_render_surface, triangleCount, triangle_count, U32) A(iq_render_surface, matrix, matrix, F32)
    R(iq_render_surface, texture, texture, iq_render_texture, 1) F(iq_render_surface, lit, lit, U32)
    F(iq_render_surface, cull, cull, U32) F(iq_render_surface, blendSrc, blend_src, U32)
    F(iq_render_surface, blendDst, blend_dst, U32) F(iq_render_surface, alphaFunc, alpha_func, U32)
    F(iq_render_surface, depthWrite, depth_write, U32) F(iq_render_surface, depthFunc, depth_func, U32)
    F(iq_render_surface, offsetFactor, offset_factor, F32) F(iq_render_surface, offsetUnits, offset_units, F32)
    REC(iq_render_lines) F(iq_render_lines, positions, positions, PTR) F(iq_render_lines, colors, colors, PTR)
    F(iq_render_lines, stride, stride, U32) F(iq_render_lines, vertexCount, vertex_count, U32)
    F(iq_render_lines, indices, indices, PTR) F(iq_render_lines, segmentCount, segment_count, U32)
    A(iq_render_lines, matrix, matrix, F32) A(iq_render_lines, color, color, F32) F(iq_render_lines, depthTest, depth_test, U32)
    REC(iq_render_view) A(iq_render_view, viewProjection, view_projection, F32) A(iq_render_view, light, light, F32)
    F(iq_render_view, ambient, ambient, F32) F(iq_render_view, intensity, intensity, F32)
#endif
};
#undef REC
#undef F
#undef A
#undef R

// -- Enums and constants, by group and name

typedef struct iq_wasm_constant {
    const char *group, *name;
    double value;
} iq_wasm_constant;

static const iq_wasm_constant constants[] = {
#define IQ_X(name, code, text) {"error", code, IQ_ERROR_##name},
    IQ_ERROR_LIST(IQ_X)
#undef IQ_X
#define IQ_X(name, code, text) {"warning", code, IQ_WARNING_##name},
    IQ_WARNING_LIST(IQ_X)
#undef IQ_X
#define IQ_X(name) {"q3_animation", #name, IQ_Q3_##name},
    IQ_Q3_ANIMATIONS(IQ_X)
#undef IQ_X
    {"format", "auto", IQ_FORMAT_AUTO}, {"format", "iqm", IQ_FORMAT_IQM}, {"format", "iqe", IQ_FORMAT_IQE},
    {"format", "md3", IQ_FORMAT_MD3},
    {"format", "md5", IQ_FORMAT_MD5},
    {"format", "dpm", IQ_FORMAT_DPM},
    {"format", "zym", IQ_FORMAT_ZYM},
    {"format", "mdr", IQ_FORMAT_MDR},
    {"format", "md2", IQ_FORMAT_MD2},
    {"format", "mdl", IQ_FORMAT_MDL},
    {"format", "mdc", IQ_FORMAT_MDC},
    {"loop", "auto", IQ_LOOP_AUTO}, {"loop", "repeat", IQ_LOOP_REPEAT}, {"loop", "once", IQ_LOOP_ONCE},
    {"loop", "pingpong", IQ_LOOP_PINGPONG},
    {"play", "stepped", IQ_PLAY_STEPPED}, {"play", "slerp", IQ_PLAY_SLERP}, {"play", "nlerp", IQ_PLAY_NLERP},
    {"animation", "loop", IQ_ANIMATION_LOOP},
    {"component", "byte", IQ_BYTE}, {"component", "ubyte", IQ_UBYTE}, {"component", "short", IQ_SHORT},
    {"component", "ushort", IQ_USHORT}, {"component", "int", IQ_INT}, {"component", "uint", IQ_UINT},
    {"component", "half", IQ_HALF}, {"component", "float", IQ_FLOAT}, {"component", "double", IQ_DOUBLE},
    {"footsteps", "normal", IQ_Q3_FOOTSTEPS_NORMAL}, {"footsteps", "boot", IQ_Q3_FOOTSTEPS_BOOT},
    {"footsteps", "flesh", IQ_Q3_FOOTSTEPS_FLESH}, {"footsteps", "mech", IQ_Q3_FOOTSTEPS_MECH},
    {"footsteps", "energy", IQ_Q3_FOOTSTEPS_ENERGY},
    {"zip", "stored", IQ_ZIP_STORED}, {"zip", "deflate", IQ_ZIP_DEFLATE}, {"zip", "encrypted", IQ_ZIP_FLAG_ENCRYPTED},
    {"default", "framerate", IQ_DEFAULT_FRAMERATE}, {"default", "md3Framerate", IQ_MD3_DEFAULT_FRAMERATE},
    {"limit", "maxWarnings", IQ_MAX_WARNINGS}, {"limit", "tgaMaxDimension", IQ_TGA_MAX_DIMENSION},
    {"limit", "q3CfgMaxBytes", IQ_Q3_CFG_MAX_BYTES}, {"limit", "skinMaxSurfaces", IQ_SKIN_MAX_SURFACES},
    {"limit", "zipMaxRatio", IQ_ZIP_DEFAULT_MAX_RATIO},
    {"gltf_alpha", "OPAQUE", IQ_GLTF_OPAQUE}, {"gltf_alpha", "MASK", IQ_GLTF_MASK}, {"gltf_alpha", "BLEND", IQ_GLTF_BLEND},
    {"gltf_front", "x", IQ_GLTF_FRONT_X}, {"gltf_front", "z", IQ_GLTF_FRONT_Z},
    {"limit", "gltfMaxTargets", IQ_GLTF_MAX_TARGETS},
    {"limit", "renderMaxDimension", IQ_RENDER_MAX_DIMENSION}, {"limit", "renderMaxSupersample", IQ_RENDER_MAX_SUPERSAMPLE},
    {"limit", "renderMaxSamples", IQ_RENDER_MAX_SAMPLES}, {"limit", "renderMaxTexture", IQ_RENDER_MAX_TEXTURE},
    {"version", "major", IQ_VERSION_MAJOR}, {"version", "minor", IQ_VERSION_MINOR},
    {"version", "patch", IQ_VERSION_PATCH},
    /* Quake 3 shaders (quake3/iq_shader.h): names by value, from the lists the enums are made of */
#define IQ_X(name, word) {"shader_wave", word, IQ_WAVE_##name},
    IQ_SHADER_WAVES(IQ_X)
#undef IQ_X
#define IQ_X(name, word) {"shader_blend", word, IQ_BLEND_##name},
    IQ_SHADER_BLENDS(IQ_X)
#undef IQ_X
#define IQ_X(name, word) {"shader_alpha_func", word, IQ_ALPHA_##name},
    IQ_SHADER_ALPHA_FUNCS(IQ_X)
#undef IQ_X
#define IQ_X(name, word) {"shader_depth_func", word, IQ_DEPTH_##name},
    IQ_SHADER_DEPTH_FUNCS(IQ_X)
#undef IQ_X
#define IQ_X(name, word) {"shader_cull", word, IQ_CULL_##name},
    IQ_SHADER_CULLS(IQ_X)
#undef IQ_X
#define IQ_X(name, word) {"shader_map", word, IQ_MAP_##name},
    IQ_SHADER_MAPS(IQ_X)
#undef IQ_X
#define IQ_X(name, word) {"shader_rgbgen", word, IQ_RGBGEN_##name},
    IQ_SHADER_RGBGENS(IQ_X)
#undef IQ_X
#define IQ_X(name, word) {"shader_alphagen", word, IQ_ALPHAGEN_##name},
    IQ_SHADER_ALPHAGENS(IQ_X)
#undef IQ_X
#define IQ_X(name, word) {"shader_tcgen", word, IQ_TCGEN_##name},
    IQ_SHADER_TCGENS(IQ_X)
#undef IQ_X
#define IQ_X(name, word) {"shader_tcmod", word, IQ_TCMOD_##name},
    IQ_SHADER_TCMODS(IQ_X)
#undef IQ_X
#define IQ_X(name, word) {"shader_deform", word, IQ_DEFORM_##name},
    IQ_SHADER_DEFORMS(IQ_X)
#undef IQ_X
#define IQ_X(name, word) {"shader_note", word, IQ_NOTE_##name},
    IQ_SHADER_NOTES(IQ_X)
#undef IQ_X
#define IQ_X(name, word, bit) {"shader_flag", word, IQ_SHADER_##name},
    IQ_SHADER_FLAGS(IQ_X)
#undef IQ_X
#define IQ_X(name, word, value) {"shader_sort", word, value},
    IQ_SHADER_SORTS(IQ_X)
#undef IQ_X
    {"shader_sort", "blend0", IQ_SORT_BLEND0},
    {"limit", "shaderMaxBytes", IQ_SHADER_MAX_BYTES}, {"limit", "shaderMaxShaders", IQ_SHADER_MAX_SHADERS},
    {"limit", "shaderMaxStages", IQ_SHADER_MAX_STAGES}, {"limit", "shaderMaxNotes", IQ_SHADER_MAX_NOTES},
};

/* The tables' addresses and lengths: JS builds its layout from them at init. */
IQ_EXPORT const iq_wasm_field *iq_wasm_layout(uint32_t *count) {
    *count = sizeof layout / sizeof layout[0];
    return layout;
}
IQ_EXPORT const iq_wasm_constant *iq_wasm_constants(uint32_t *count) {
    *count = sizeof constants / sizeof constants[0];
    return constants;
}

/* The tables describe themselves too, so JS can read them before it knows anything. */
#if defined(__wasm32__)
_Static_assert(sizeof(iq_wasm_field) == 24 && offsetof(iq_wasm_field, offset) == 8 && offsetof(iq_wasm_field, of) == 20,
               "JS reads the layout table as record, field, offset, type, count, of");
_Static_assert(sizeof(iq_wasm_constant) == 16 && offsetof(iq_wasm_constant, value) == 8,
               "JS reads the constant table as group, name, value");
#endif

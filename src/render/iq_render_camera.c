/* The orbit camera of the element (web/viewer/camera.js): the framing of a
 * box, camera-orbit and camera-target, the depth range and the default key
 * light, computed in double and stored as the float matrices the element
 * hands WebGL, so both draw from the same numbers (tests/js/render/ compares
 * them). Z is up, as in Quake and IQM. */
#include "render/iq_render.h"
#include "base/iq_internal.h"
#include <math.h>

#define IQR_PI 3.14159265358979323846
#define IQR_DEG (IQR_PI / 180.0)
#define IQR_DEFAULT_YAW (35.0 * IQR_DEG)
#define IQR_DEFAULT_PITCH (12.0 * IQR_DEG)
#define IQR_FRAMING_LIMIT 1e7 /* framing.js's LIMIT: a wider box is absurd */
#define IQR_MARGIN 0.08 /* camera.js's MARGIN: of the half-height (and half-width) left free round the box */
#define IQR_FIT_YAWS 16 /* camera.js's FIT_YAWS: directions round Z the box is framed from */

static double dot3(const double *a, const double *b) { return a[0] * b[0] + a[1] * b[1] + a[2] * b[2]; }
static void cross3(const double *a, const double *b, double *out) {
    double x = a[1] * b[2] - a[2] * b[1], y = a[2] * b[0] - a[0] * b[2], z = a[0] * b[1] - a[1] * b[0];
    out[0] = x; out[1] = y; out[2] = z;
}
static void normalize3(double *v) {
    double l = sqrt(dot3(v, v));
    if (!(l > 0)) l = 1;
    v[0] /= l; v[1] /= l; v[2] /= l;
}

/* framing.js's sane(): finite, ordered, not absurd; otherwise the unit box. */
static int usable_bounds(const float *min, const float *max) {
    for (int k = 0; k < 3; k++) {
        double a = min[k], b = max[k];
        if (!(fabs(a) < IQR_FRAMING_LIMIT && fabs(b) < IQR_FRAMING_LIMIT && a <= b && b - a < IQR_FRAMING_LIMIT)) return 0;
    }
    return 1;
}

/* out = a * b, column-major, float inputs summed in double as mat4.js's multiply does. */
static void multiply4(const float *a, const float *b, float *out) {
    for (int c = 0; c < 4; c++)
        for (int r = 0; r < 4; r++)
            out[c * 4 + r] = (float)((double)a[r] * b[c * 4] + (double)a[4 + r] * b[c * 4 + 1] +
                                     (double)a[8 + r] * b[c * 4 + 2] + (double)a[12 + r] * b[c * 4 + 3]);
}

static int camera_compute(const iq_render_camera_spec *spec, iq_render_camera *out, iq_error *error) {
    if (!spec || !out) return iqi_set_error(error, IQ_ERROR_INVALID_ARGUMENT, "camera: no spec or output");
    double fov = spec->fov, aspect = spec->aspect;
    if (!(fov > 0 && fov < IQR_PI))
        return iqi_set_error(error, IQ_ERROR_INVALID_ARGUMENT, "camera: field of view %g rad is not between 0 and pi", fov);
    if (!(aspect > 0 && aspect < 1e6))
        return iqi_set_error(error, IQ_ERROR_INVALID_ARGUMENT, "camera: aspect ratio %g is not a positive number", aspect);
    if (spec->radius_mode > 2 || (spec->radius_mode != 0 && !(spec->radius > 0 && spec->radius < 1e30f)))
        return iqi_set_error(error, IQ_ERROR_INVALID_ARGUMENT, "camera: radius %g is not a positive number", spec->radius);
    for (int k = 0; k < 3; k++)
        if (!isnan(spec->target[k]) && !(fabs(spec->target[k]) < 1e30))
            return iqi_set_error(error, IQ_ERROR_INVALID_ARGUMENT, "camera: target is not finite");
    if ((!isnan(spec->theta) && !isfinite(spec->theta)) || (!isnan(spec->phi) && !isfinite(spec->phi)))
        return iqi_set_error(error, IQ_ERROR_INVALID_ARGUMENT, "camera: orbit angles are not finite");

    /* fit(): the box's centre and the radius of its sphere. */
    static const float unit_min[3] = {-1, -1, -1}, unit_max[3] = {1, 1, 1};
    int ok = usable_bounds(spec->bounds_min, spec->bounds_max);
    const float *min = ok ? spec->bounds_min : unit_min, *max = ok ? spec->bounds_max : unit_max;
    double center[3], d[3];
    for (int k = 0; k < 3; k++) {
        center[k] = ((double)min[k] + max[k]) / 2;
        d[k] = (double)max[k] - min[k];
    }
    double fit_radius = sqrt(dot3(d, d)) / 2;
    if (fit_radius < 1e-3) fit_radius = 1e-3;
    double target[3];
    for (int k = 0; k < 3; k++) target[k] = isnan(spec->target[k]) ? center[k] : spec->target[k];

    /* applyOrbit(): theta around Z from +X, phi from the +Z pole. The auto distance
     * (autoDistance()) is the nearest at which every corner of the box is inside the view with
     * IQR_MARGIN to spare, vertically and across (the aspect), seen at this pitch from
     * IQR_FIT_YAWS directions round Z and from this yaw, so the model stays whole as it turns. */
    double yaw = isnan(spec->theta) ? IQR_DEFAULT_YAW : spec->theta;
    double pitch = isnan(spec->phi) ? IQR_DEFAULT_PITCH : IQR_PI / 2 - spec->phi;
    double auto_distance = 1e-3;
    {
        double tan_v = tan(fov / 2) * (1 - IQR_MARGIN), tan_h = tan_v * aspect;
        double cpitch = cos(pitch), spitch = sin(pitch);
        for (int i = 0; i <= IQR_FIT_YAWS; i++) {
            double a = i == IQR_FIT_YAWS ? yaw : (i * 2 * IQR_PI) / IQR_FIT_YAWS;
            double to_eye[3] = {cpitch * cos(a), cpitch * sin(a), spitch};
            double right[2] = {-sin(a), cos(a)};
            double upv[3] = {-spitch * cos(a), -spitch * sin(a), cpitch};
            for (int c = 0; c < 8; c++) {
                double q[3];
                for (int k = 0; k < 3; k++) q[k] = ((c >> k) & 1 ? (double)max[k] : (double)min[k]) - target[k];
                double depth = dot3(q, to_eye), x = q[0] * right[0] + q[1] * right[1], y = dot3(q, upv);
                if (depth + fabs(y) / tan_v > auto_distance) auto_distance = depth + fabs(y) / tan_v;
                if (depth + fabs(x) / tan_h > auto_distance) auto_distance = depth + fabs(x) / tan_h;
            }
        }
    }
    double distance = spec->radius_mode == 0 ? auto_distance
                    : spec->radius_mode == 1 ? auto_distance * spec->radius : spec->radius;

    /* matrices() */
    double cp = cos(pitch);
    double eye[3] = {target[0] + distance * cp * cos(yaw), target[1] + distance * cp * sin(yaw),
                     target[2] + distance * sin(pitch)};
    double off[3] = {eye[0] - center[0], eye[1] - center[1], eye[2] - center[2]};
    double offset = sqrt(dot3(off, off));
    double near_plane = offset - fit_radius * 4;
    if (near_plane < offset * 0.01) near_plane = offset * 0.01;
    if (near_plane < 1e-4) near_plane = 1e-4;
    double far_plane = offset + fit_radius * 4;

    /* lookAt(eye, target, +Z) */
    double z[3] = {eye[0] - target[0], eye[1] - target[1], eye[2] - target[2]}, x[3], y[3];
    static const double up[3] = {0, 0, 1};
    normalize3(z);
    cross3(up, z, x);
    normalize3(x);
    cross3(z, x, y);
    float *v = out->view;
    v[0] = (float)x[0]; v[1] = (float)y[0]; v[2] = (float)z[0]; v[3] = 0;
    v[4] = (float)x[1]; v[5] = (float)y[1]; v[6] = (float)z[1]; v[7] = 0;
    v[8] = (float)x[2]; v[9] = (float)y[2]; v[10] = (float)z[2]; v[11] = 0;
    v[12] = (float)-dot3(x, eye); v[13] = (float)-dot3(y, eye); v[14] = (float)-dot3(z, eye); v[15] = 1;

    /* perspective(fov, aspect, near, far) */
    float *p = out->projection;
    for (int i = 0; i < 16; i++) p[i] = 0;
    double f = 1 / tan(fov / 2);
    p[0] = (float)(f / aspect);
    p[5] = (float)f;
    p[10] = (float)((far_plane + near_plane) / (near_plane - far_plane));
    p[11] = -1;
    p[14] = (float)((2 * far_plane * near_plane) / (near_plane - far_plane));
    multiply4(p, v, out->view_projection);

    /* A key light from over the viewer's shoulder, so the side facing the camera is lit. */
    double light[3] = {cos(yaw + 0.6) * cos(0.7), sin(yaw + 0.6) * cos(0.7), sin(0.7)};
    normalize3(light);
    for (int k = 0; k < 3; k++) {
        out->eye[k] = (float)eye[k];
        out->target[k] = (float)target[k];
        out->light[k] = (float)light[k];
    }
    out->forward[0] = -v[2]; out->forward[1] = -v[6]; out->forward[2] = -v[10];
    out->left[0] = -v[0]; out->left[1] = -v[4]; out->left[2] = -v[8];
    out->up[0] = v[1]; out->up[1] = v[5]; out->up[2] = v[9];
    out->distance = (float)distance;
    out->near_plane = (float)near_plane;
    out->fit_radius = (float)fit_radius;
    out->far_plane = (float)far_plane;
    return 1;
}

iq_error_code iq_render_camera_compute(const iq_render_camera_spec *spec, iq_render_camera *out, iq_error *error) {
    iq_error local;
    error = iqi_error_reset(error, &local);
    return iqi_result(camera_compute(spec, out, error), error);
}

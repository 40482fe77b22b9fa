/// @file scene.h
/// Scene data: the body, its contacts (1 to ZENO_MAX_CONTACTS), the load, the impact law,
/// the initial state and the stop conditions.
///
/// Frames and units (SPEC.md conventions):
/// - Body frame: centre of mass at the origin. At the nominal pose (the
///   equilibrium being perturbed) the body frame coincides with the world
///   frame, so contact points are also their world positions at equilibrium.
/// - Lengths, masses, forces and times are in any consistent unit system
///   (the paper's examples use m = rho = |f| = 1). Geometry angles in a scene
///   file are in degrees; the zeno_scene struct stores them in radians.
/// - Surface i is the straight stationary line through surface_point with
///   tangent t_i = (cos phi_i, sin phi_i) and normal n_i = J t_i
///   = (-sin phi_i, cos phi_i): the gap z_i is measured along n_i.
/// - The load f_ex = |f| (sin alpha, -cos alpha) acts at the centre of mass,
///   together with a torque tau about it (counter-clockwise positive).
#ifndef ZENO_SCENE_H
#define ZENO_SCENE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include "zeno/api.h"
#include "zeno/error.h"

#ifdef __cplusplus
extern "C" {
#endif

/// pi, the one definition of the library, its programs and tests (M_PI is
/// not part of strict C17). Scene angles are read in degrees and kept in
/// radians: radians = degrees * ZENO_PI / 180.
#define ZENO_PI 3.14159265358979323846
/// Radians per degree.
#define ZENO_RADIANS_PER_DEGREE (ZENO_PI / 180.0)

/// The most contacts a scene may have (zeno_scene.contacts). Only the
/// static check (zeno check, zeno_contact_set_check through
/// zeno_contact_set_def_from_scene) reads more than two today; the engine
/// and its analysis refuse them (ZENO_PAIR_CONTACTS).
#define ZENO_MAX_CONTACTS 16
/// The contacts of the two-contact engine and its analysis: the simulation
/// (modes, states, events, run directories), the maps, the theorems, the
/// certificate, regions and sweeps. They size their arrays by this bound
/// (docs/model.md, "Any number of contacts: the plan") and refuse a scene
/// of more contacts with ZENO_ERR_UNSUPPORTED naming its contact count.
#define ZENO_PAIR_CONTACTS 2
/// The most vertices of a drawing outline.
#define ZENO_MAX_OUTLINE 64

/// Which dynamics are simulated.
typedef enum zeno_model {
  ZENO_MODEL_ZOD = 0,  ///< zero-order dynamics: constant accelerations per mode
  ZENO_MODEL_FULL      ///< full nonlinear rigid-body dynamics (CVODE)
} zeno_model;

/// Impact law used at collisions; what each reads of the scene and what
/// the analysis concludes under it: zeno/impact_law.h.
typedef enum zeno_impact_law {
  ZENO_LAW_INELASTIC = 0,     ///< paper eq. (15): zero restitution, Coulomb impulses
  ZENO_LAW_CHATTERJEE_RUINA,  ///< normal/tangential restitution e, e_t (single impacts)
  ZENO_LAW_NEWTON             ///< Newton restitution e with Coulomb friction
} zeno_impact_law;
/// The number of laws (values 0..ZENO_LAW_COUNT-1).
#define ZENO_LAW_COUNT 3
/// The law of a scene that names none: the paper's.
#define ZENO_LAW_DEFAULT ZENO_LAW_INELASTIC

/// The default escape radius (zeno_scene.escape_radius 0) in sizes of the
/// body (max(rho, |p_i|)): far beyond any motion that returns to its
/// equilibrium.
#define ZENO_ESCAPE_RADIUS_SCALES 1e6

/// What to do when several contact modes are consistent at an event.
typedef enum zeno_ambiguity_policy {
  ZENO_AMBIGUITY_STOP = 0,       ///< stop with status `ambiguous` (Theorem 1)
  ZENO_AMBIGUITY_PREFER_STATIC,  ///< take the mode with most sticking, then most closed contacts
  ZENO_AMBIGUITY_PREFER_MOTION  ///< take the mode with fewest sticking, then fewest closed contacts
} zeno_ambiguity_policy;

/// How the initial state is given.
typedef enum zeno_initial_kind {
  ZENO_INITIAL_ZOD = 0,  ///< q' = (z1, z2, x2) and its rate (two-contact scenes)
  ZENO_INITIAL_POSE      ///< body pose displacement (x, y, theta) and velocity
} zeno_initial_kind;

/// Shape drawn for the body (the physics uses only m, rho and the contacts).
typedef enum zeno_outline_kind {
  ZENO_OUTLINE_BIPED = 0,  ///< torso around the centre of mass, legs to the contacts
  ZENO_OUTLINE_POLYGON,    ///< the closed polygon in outline[]
  ZENO_OUTLINE_DISK        ///< a disk of radius outline_radius around the centre of mass
} zeno_outline_kind;

/// The paper's parameterisation (Fig. 1), angles in degrees as written in
/// scene files. Contact points p_i = (l_i, -h) relative to the centre of mass.
typedef struct zeno_paper_params {
  double alpha;  ///< load angle from the -y axis [deg]
  double l1;     ///< horizontal offset of contact 1 from the centre of mass [length]
  double l2;     ///< horizontal offset of contact 2 [length]
  double h;      ///< height of the centre of mass above the contacts [length]
  double phi1;   ///< tangent angle of surface 1 from the x axis [deg]
  double phi2;   ///< tangent angle of surface 2 [deg]
  double mu1;    ///< friction coefficient at contact 1 [-]
  double mu2;    ///< friction coefficient at contact 2 [-]
  double rho;    ///< radius of gyration [length]
  double m;      ///< mass [mass]
  double f;      ///< load magnitude |f_ex| [force]
  double tau;    ///< load torque about the centre of mass [force*length]
} zeno_paper_params;

/// What a scene keeps of the paper block it was written with: the values
/// the general form holds only converted (the angles in degrees, the
/// contact offsets before the centre of mass moved). The block's mass,
/// radius of gyration, load magnitude and torque and friction coefficients
/// are stored once, in the general form (zeno_scene.mass, rho,
/// load_magnitude, load_torque, contacts[i].mu); zeno_scene_paper() puts
/// the whole block together.
typedef struct zeno_paper_geometry {
  double alpha;  ///< load angle from the -y axis [deg]
  double l1;     ///< horizontal offset of contact 1 from the centre of mass [length]
  double l2;     ///< horizontal offset of contact 2 [length]
  double h;      ///< height of the centre of mass above the contacts [length]
  double phi1;   ///< tangent angle of surface 1 from the x axis [deg]
  double phi2;   ///< tangent angle of surface 2 [deg]
} zeno_paper_geometry;

/// One contact: a body-fixed vertex touching a fixed straight surface.
typedef struct zeno_contact_def {
  /// Contact vertex in body frame, relative to the centre of mass [length]
  double point[2];
  double surface_angle;     ///< tangent angle phi_i of the surface from the world x axis [rad]
  double surface_point[2];  ///< a point of the surface line, world frame [length]
  bool surface_point_set;   ///< false: the line passes through the vertex at the nominal pose
  double mu;                ///< Coulomb friction coefficient [-], >= 0
} zeno_contact_def;

/// A whole scene. Initialise with zeno_scene_default() and override fields,
/// or load one with zeno_scene_load().
typedef struct zeno_scene {
  char name[64];  ///< free text, for reports

  /* body */
  double mass;                          ///< m > 0 [mass]
  double rho;                           ///< radius of gyration > 0 [length]; I = m rho^2
  zeno_outline_kind outline_kind;       ///< drawing shape
  size_t outline_count;                 ///< vertices in outline[] (polygon outline)
  double outline[ZENO_MAX_OUTLINE][2];  ///< polygon, body frame [length]
  double outline_radius;                ///< disk outline radius [length]

  /* contacts */
  /// 1 .. ZENO_MAX_CONTACTS (16); simulation and the analysis take 1 or 2
  /// (ZENO_PAIR_CONTACTS), `zeno check` any
  int contact_count;
  zeno_contact_def contacts[ZENO_MAX_CONTACTS];

  /* load */
  double load_magnitude;  ///< |f_ex| >= 0 [force]
  double load_angle;      ///< alpha, from the -y axis, counter-clockwise [rad]
  double load_torque;     ///< tau_ex about the centre of mass [force*length]

  /* the paper block, when the scene used one (kept for reports and --set) */
  bool has_paper;
  zeno_paper_geometry paper;  ///< what the general form holds only converted
  /// Centre of mass moved by this in the scene frame, contacts fixed [length]
  double com_shift[2];

  /* impact law */
  zeno_impact_law impact_law;
  double restitution;             ///< normal restitution e in [0, 1]
  double tangential_restitution;  ///< tangential restitution e_t in [-1, 1] (Chatterjee-Ruina)

  /* initial state */
  zeno_initial_kind initial_kind;
  double initial_qp[3];   ///< (z1, z2, x2) [length]
  double initial_qdp[3];  ///< their rates [length/time]
  /// (x, y, theta) displacement from the nominal pose [length, length, rad]
  double initial_pose[3];
  double initial_velocity[3];  ///< (vx, vy, omega) [length/time, length/time, rad/time]

  /* model */
  zeno_model model;
  /// Full model only: positions scaled by eps^2, velocities by eps, > 0
  double epsilon;

  /* stop conditions */
  double t_end;     ///< stop with `time-limit` at this time [time], > 0
  long max_events;  ///< stop with `event-limit` after this many events, >= 1
  /// Stop with `escaped` when any of |z_i|, |x_i| exceeds it [length],
  /// >= 0. 0 (the default): ZENO_ESCAPE_RADIUS_SCALES times the body's size
  /// max(rho, |p_i|), so that the outcome does not depend on the units the
  /// scene is written in.
  double escape_radius;

  /* solver settings (full model) and output */
  double rtol;  ///< CVODE relative tolerance, in (0, 1e-2]
  /// CVODE absolute tolerance as a fraction of the segment's length and speed scales, > 0
  double atol;
  /// Trajectory sampling interval for output [time], >= 0 (0: events only)
  double sample_dt;
  zeno_ambiguity_policy ambiguity;

  /* appended stop condition */
  /// Stop with `wall-limit` once the run has taken this much wall-clock time
  /// (monotonic clock) [s], >= 0; 0: no limit. Checked between events, so
  /// the same scene may end at different events on different machines; the
  /// simulated physics never reads the clock.
  double wall_time;
} zeno_scene;

/// A scene with every field at its documented default: the paper's Example 2
/// with the inelastic law, ZOD model, q'(0) = (1, 1, 0), q'dot(0) = (0, 0, 2).
ZENO_API zeno_scene zeno_scene_default(void);

/// Expands a paper block into body, contacts and load (SPEC.md conventions)
/// and keeps its geometry in scene->paper. com_shift is applied as
/// documented.
ZENO_API void zeno_scene_apply_paper(zeno_scene *scene, const zeno_paper_params *paper);

/// The paper block of a scene that has one (has_paper): its geometry with
/// the mass, radius of gyration, load and friction of the general form.
/// False, *paper untouched, for a scene in the general form or NULL
/// arguments.
ZENO_API bool zeno_scene_paper(const zeno_scene *scene, zeno_paper_params *paper);

/// The paper block of Example 2 (m = rho = |f| = 1, tau = 0).
ZENO_API zeno_paper_params zeno_paper_example2(void);

/// Checks ranges and geometry. On failure fills error->parameter with the
/// dotted scene path and error->message with the allowed range.
ZENO_API zeno_status zeno_scene_validate(const zeno_scene *scene, zeno_error *error);

/// ZENO_OK for a scene the two-contact engine and its analysis take (at
/// most ZENO_PAIR_CONTACTS contacts). Otherwise ZENO_ERR_UNSUPPORTED,
/// parameter "contacts", one line naming the contact count and what takes
/// it today: the analysis, maps and certificates 1 or 2 contacts; the
/// static check (zeno_contact_set_def_from_scene, `zeno check`), the
/// simulator in either model (zeno_sim_create()), sweeps and region maps
/// (Pang and Trinkle's verdict and simulations) any up to ZENO_MAX_CONTACTS. Every entry point of the two-contact engine and the
/// analysis that takes a scene calls it.
ZENO_API zeno_status zeno_scene_require_pair(const zeno_scene *scene, zeno_error *error);

/// Loads a YAML scene file and applies `--set` style overrides
/// ("dotted.path=VALUE", VALUE in YAML flow syntax), then validates.
/// Errors carry file:line:column (or the override text) and exit no memory.
ZENO_API zeno_status zeno_scene_load(const char *path, const char *const *overrides,
                                     size_t override_count, zeno_scene *scene, zeno_error *error);

/// Same as zeno_scene_load() for YAML text in memory; `name` is used as the
/// file name in error messages and, without a `name` key, for the scene's
/// name (as zeno_scene_load() uses the file's).
ZENO_API zeno_status zeno_scene_load_string(const char *text, const char *name,
                                            const char *const *overrides, size_t override_count,
                                            zeno_scene *scene, zeno_error *error);

/// The most bytes a scene may have (1 MiB; a scene with the longest outline
/// is a few kilobytes). Larger files and texts are refused (ZENO_ERR_RANGE).
#define ZENO_SCENE_MAX_BYTES 1048576

/// Reads a scene file's text once (at most ZENO_SCENE_MAX_BYTES; a pipe
/// too), for programs that need the text as well as the scene: load it with
/// zeno_scene_load_string(text, path, ...), keep it beside a run, hash it.
/// *text is NUL-terminated and the caller's (free()); *length may be NULL.
/// Errors: ZENO_ERR_IO, ZENO_ERR_RANGE (too large), ZENO_ERR_NOMEM.
ZENO_API zeno_status zeno_scene_read_file(const char *path, char **text, size_t *length,
                                          zeno_error *error);

/// The same from an open stream (standard input, say), read to its end and
/// left open; `name` stands for the file in errors.
ZENO_API zeno_status zeno_scene_read_stream(FILE *stream, const char *name, char **text,
                                            size_t *length, zeno_error *error);

/// Stable names of enums as written in scene files.
ZENO_API const char *zeno_model_name(zeno_model model);
ZENO_API const char *zeno_impact_law_name(zeno_impact_law law);
ZENO_API const char *zeno_ambiguity_policy_name(zeno_ambiguity_policy policy);

#ifdef __cplusplus
}
#endif
#endif

/* The randomized model test's driver: see model_run.h. */
#include "model_run.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "testlib.h"

#include "lsm_check.h"
#include "model_read.h"
#include "model_state.h"
#include "paimon.h"
#include "paimon/write.h"
#include "util/alloc.h"

#define MAX_LEVEL     3  /* num-sorted-run.compaction-trigger 3: num-levels defaults to 4 */
#define COMPACT_EVERY 9  /* every 9th step is a dedicated compaction job */
#define WRITE_ONLY    3  /* commits before the job of every other cycle, with write-only=true */
#define DEFAULT_STEPS 45 /* 5 jobs, 40 commits of 20..139 records */

typedef struct run {
    const pm_model_combo *c;
    char *path;
    char name[64];
    uint64_t rng;
    pm_model_state model;     /* what the table holds */
    pm_model_state before;    /* ... before the current step */
    pm_model_state visible;   /* ... at the last step that left no level-0 file (what batch reads
                               of first-row and deletion-vector tables show meanwhile) */
    pm_model_state applied;   /* lookup and full-compaction: every change so far, applied */
    bool dead[PM_MODEL_KEYS]; /* partial-update, aggregation: deleted, never written again */
    int dead_count;
    bool pending[PM_MODEL_KEYS]; /* written since the last settled step (see check_changes) */
    pm_model_record *written;    /* the current step's records, after the entrance filter */
    size_t written_count;
    size_t written_cap;
    int64_t last_snapshot; /* the latest snapshot before the current step, 0: none */
    bool write_only;       /* the table is write-only=true now */
    /* what the run exercised */
    int64_t records;
    int compactions;
    int compact_snapshots;
    int write_only_commits;
    int max_level;
    int exact_checks;   /* changes applied to the previous state gave the new one */
    int settled_checks; /* lookup, full-compaction: ... to the last settled state */
    int input_checks;   /* input: the changes were the records written */
    int weak_checks;    /* every key that changed appeared in the changes */
    int64_t change_rows;
} run;

static uint32_t rnd(run *r, uint32_t n)
{
    r->rng = r->rng * 6364136223846793005ULL + 1442695040888963407ULL;
    return (uint32_t)(r->rng >> 33) % n;
}

/* ---- the table --------------------------------------------------------------------------- */

#define MAX_OPTIONS 16

static size_t table_options(const pm_model_combo *c, int delta_commits, char *delta_buf,
                            size_t delta_cap, const char **keys, const char **vals)
{
    size_t n = 0;
#define OPT(k, v) (keys[n] = (k), vals[n++] = (v))
    OPT("bucket", "2");
    OPT("num-sorted-run.compaction-trigger", "3"); /* MAX_LEVEL */
    OPT("write-buffer-size", "96 kb");             /* flushes inside commits */
    OPT("write-buffer-spillable", "false");
    OPT("target-file-size", "6 kb"); /* several files per level, upgrades */
    switch (c->engine) {
    case PM_MODEL_DEDUPLICATE: break;
    case PM_MODEL_PARTIAL_UPDATE:
        OPT("merge-engine", "partial-update");
        OPT("partial-update.remove-record-on-delete", "true");
        break;
    case PM_MODEL_AGGREGATION:
        OPT("merge-engine", "aggregation");
        OPT("fields.a.aggregate-function", "sum");
        OPT("fields.b.aggregate-function", "last_non_null_value");
        OPT("aggregation.remove-record-on-delete", "true");
        break;
    case PM_MODEL_FIRST_ROW:
        OPT("merge-engine", "first-row");
        OPT("ignore-delete", "true");
        break;
    }
    if (c->producer != PM_MODEL_CL_NONE)
        OPT("changelog-producer", pm_model_producer_name(c->producer));
    if (c->deletion_vectors)
        OPT("deletion-vectors.enabled", "true");
    if (delta_commits > 0) {
        snprintf(delta_buf, delta_cap, "%d", delta_commits);
        OPT("full-compaction.delta-commits", delta_buf);
    }
#undef OPT
    assert_true(n <= MAX_OPTIONS);
    return n;
}

static int create_table(const char *path, const pm_model_combo *c, int delta_commits,
                        paimon_error *err)
{
    paimon_create_options co = PAIMON_CREATE_OPTIONS_INIT;
    const char *pks[1] = {"k"};
    const char *keys[MAX_OPTIONS], *vals[MAX_OPTIONS];
    char delta[16];
    co.columns = "k INT NOT NULL, a BIGINT, b STRING";
    co.primary_keys = pks;
    co.primary_key_count = 1;
    co.option_keys = keys;
    co.option_values = vals;
    co.option_count = table_options(c, delta_commits, delta, sizeof(delta), keys, vals);
    return paimon_table_create(path, &co, err);
}

/* The run's table directory (the parent of `path`, which pm_test_table_path made). */
static void remove_table(char *path)
{
    char *slash = strrchr(path, '/');
    assert_non_null(slash);
    *slash = '\0';
    pm_test_rmtree(path);
    pm_free(path);
}

/* ---- records ----------------------------------------------------------------------------- */

static bool is_retract(int kind)
{
    return kind == PAIMON_ROW_UPDATE_BEFORE || kind == PAIMON_ROW_DELETE;
}

/* A random record engine `c->engine` accepts and the model predicts exactly. */
static void gen_record(run *r, pm_model_record *out)
{
    int k = (int)rnd(r, PM_MODEL_KEYS), kind;
    uint32_t roll = rnd(r, 16);
    /* Partial-update and aggregation start a deleted row from the delete's values and fold
     * a later insert into it when both meet in a merge without the older value, which then
     * merges with that value: the result depends on how merges were cut (Java's too).
     * Deleted keys stay deleted here, which is exact. */
    while (r->dead[k])
        k = (int)rnd(r, PM_MODEL_KEYS);
    switch (r->c->engine) {
    case PM_MODEL_DEDUPLICATE:
    case PM_MODEL_FIRST_ROW: /* first-row: ignore-delete drops the retracts */
        kind = roll < 2   ? PAIMON_ROW_DELETE
               : roll < 3 ? PAIMON_ROW_UPDATE_BEFORE
               : roll < 7 ? PAIMON_ROW_UPDATE_AFTER
                          : PAIMON_ROW_INSERT;
        break;
    case PM_MODEL_PARTIAL_UPDATE: /* no -U: see model_state.h */
        kind = roll < 2   ? PAIMON_ROW_DELETE
               : roll < 6 ? PAIMON_ROW_UPDATE_AFTER
                          : PAIMON_ROW_INSERT;
        break;
    default: /* aggregation retracts only rows that exist (a lone retract's fate depends on the
                cuts as well), and only the sum: retracting last_non_null_value is not
                associative */
        kind = roll < 2                               ? PAIMON_ROW_DELETE
               : roll < 4 && r->model.rows[k].present ? PAIMON_ROW_UPDATE_BEFORE
               : roll < 7                             ? PAIMON_ROW_UPDATE_AFTER
                                                      : PAIMON_ROW_INSERT;
        break;
    }
    out->k = k;
    out->kind = kind;
    out->has_a = rnd(r, 5) != 0;
    out->a = (int64_t)rnd(r, 1000) - 300;
    out->b = kind != PAIMON_ROW_UPDATE_BEFORE && rnd(r, 3) != 0 ? (int)rnd(r, 50) : -1;
    if (kind == PAIMON_ROW_DELETE && r->c->engine != PM_MODEL_DEDUPLICATE &&
        r->c->engine != PM_MODEL_FIRST_ROW) {
        if (r->dead_count >= PM_MODEL_KEYS / 2) { /* long runs: keep keys to write */
            out->kind = PAIMON_ROW_INSERT;
        } else {
            r->dead[k] = true;
            r->dead_count++;
        }
    }
}

static void write_record(run *r, paimon_writer *w, const pm_model_record *rec, int step)
{
    paimon_value row[3];
    paimon_error err;
    char text[16];
    row[0].type = PAIMON_VALUE_INT;
    row[0].v.i = rec->k;
    row[1].type = rec->has_a ? PAIMON_VALUE_INT : PAIMON_VALUE_NULL;
    row[1].v.i = rec->a;
    if (rec->b >= 0) {
        snprintf(text, sizeof(text), "s%d", rec->b);
        row[2].type = PAIMON_VALUE_TEXT;
        row[2].v.s.ptr = text;
        row[2].v.s.len = strlen(text);
    } else {
        row[2].type = PAIMON_VALUE_NULL;
    }
    if (paimon_writer_write_row(w, row, 3, rec->kind, &err) != 0)
        fail_msg("%s step %d: write: %s", r->name, step, err.message);
    pm_model_state_write(&r->model, r->c->engine, rec);
    r->records++;
    if (r->c->engine == PM_MODEL_FIRST_ROW && is_retract(rec->kind))
        return; /* dropped at the writer's entrance */
    if (r->written_count == r->written_cap) {
        r->written_cap = r->written_cap ? r->written_cap * 2 : 256;
        r->written = pm_realloc(r->written, r->written_cap * sizeof(*r->written));
        assert_non_null(r->written);
    }
    r->written[r->written_count++] = *rec;
}

/* ---- the change check -------------------------------------------------------------------- */

/* Whether the step left the table "settled" for a producer that reports from compactions:
 * lookup reports the change of each key whose level-0 records a compaction takes up, so the
 * changes so far give the state whenever no level-0 file is left; full-compaction reports
 * the change of a key's max-level record only, so the changes so far give the state whenever
 * every file sits at the max level. */
static bool settled(const run *r, const pm_test_lsm_levels *lv)
{
    if (lv->files == 0)
        return true;
    if (r->c->producer == PM_MODEL_CL_FULL_COMPACTION)
        return lv->min_level == MAX_LEVEL;
    return lv->level0_files == 0;
}

/* What the change stream of a step's new snapshots must give (behaviour.md §4):
 *   lookup,           exact at every settled step (above): the changes so far, applied in
 *   full-compaction   order to an empty table, give the state; and they name only keys
 *                     written since the last settled step.  Writers of lookup tables compact
 *                     level 0 away at every commit, so with them every step is settled;
 *   none, deduplicate exact at every step: each flush's last record per key, with its kind,
 *                     applied to the previous state give the new one;
 *   input             the same for deduplicate; for every engine, per key, the records
 *                     written (after the entrance filter) in the order written;
 *   none, input       with the other engines, a flush's merged records, not their merge with
 *                     older ones: every key whose row changed appears in the changes, and
 *                     only keys the step wrote do.
 * And the snapshots Java's streaming read skips give no rows: none and input report APPEND
 * snapshots only, lookup and full-compaction COMPACT snapshots only. */
static void check_changes(run *r, int step, int64_t first, int64_t last,
                          const pm_test_lsm_levels *lv)
{
    const pm_model_combo *c = r->c;
    pm_model_changes ch;
    char msg[512], what[160], a[128], b[128];
    bool from_compact =
        c->producer == PM_MODEL_CL_LOOKUP || c->producer == PM_MODEL_CL_FULL_COMPACTION;
    bool exact = c->engine == PM_MODEL_DEDUPLICATE &&
                 (c->producer == PM_MODEL_CL_NONE || c->producer == PM_MODEL_CL_INPUT);
    bool *in_changes = pm_calloc(PM_MODEL_KEYS, sizeof(bool));

    assert_non_null(in_changes);
    if (pm_model_read_changes(r->path, first, last, &ch, msg, sizeof(msg)) != 0)
        fail_msg("%s step %d: %s", r->name, step, msg);
    r->change_rows += (int64_t)ch.count;
    for (size_t i = 0; i < ch.snapshot_count; i++) {
        const pm_model_change_snapshot *s = &ch.snapshots[i];
        bool compact = strcmp(s->commit_kind, "COMPACT") == 0;
        if (s->count > 0 && (!s->read || compact != from_compact))
            fail_msg("%s step %d: %s snapshot %lld gave %zu changes (Java's streaming read "
                     "reads it: %s)",
                     r->name, step, s->commit_kind, (long long)s->id, s->count,
                     s->read ? "yes" : "no");
    }
    for (size_t i = 0; i < ch.count; i++)
        in_changes[ch.records[i].k] = true;

    if (from_compact) {
        for (size_t i = 0; i < ch.count; i++) {
            if (!r->pending[ch.records[i].k])
                fail_msg("%s step %d: change %s of a key not written since the last settled "
                         "step",
                         r->name, step, pm_model_record_text(&ch.records[i], a, sizeof(a)));
            pm_model_state_apply_change(&r->applied, &ch.records[i]);
        }
        if (settled(r, lv)) {
            snprintf(what, sizeof(what), "%s step %d: every change up to settled snapshot %lld",
                     r->name, step, (long long)last);
            if (!pm_model_state_equal(&r->model, &r->applied, what, msg, sizeof(msg)))
                fail_msg("%s", msg);
            memset(r->pending, 0, sizeof(r->pending));
            r->settled_checks++;
        }
    } else {
        bool *was_written = pm_calloc(PM_MODEL_KEYS, sizeof(bool));
        assert_non_null(was_written);
        for (size_t i = 0; i < r->written_count; i++)
            was_written[r->written[i].k] = true;
        for (size_t i = 0; i < ch.count; i++)
            if (!was_written[ch.records[i].k])
                fail_msg("%s step %d: change %s of a key the step did not write", r->name, step,
                         pm_model_record_text(&ch.records[i], a, sizeof(a)));
        pm_free(was_written);
        for (int k = 0; k < PM_MODEL_KEYS; k++)
            if (pm_model_state_differs(&r->before, &r->model, k) && !in_changes[k])
                fail_msg("%s step %d: key %d changed from %s to %s, no change names it", r->name,
                         step, k, pm_model_row_text(&r->before.rows[k], a, sizeof(a)),
                         pm_model_row_text(&r->model.rows[k], b, sizeof(b)));
        r->weak_checks++;
    }
    if (exact) {
        pm_model_state *state = pm_malloc(sizeof(*state));
        assert_non_null(state);
        *state = r->before;
        for (size_t i = 0; i < ch.count; i++)
            pm_model_state_apply_change(state, &ch.records[i]);
        snprintf(what, sizeof(what), "%s step %d: changes of snapshots %lld..%lld applied", r->name,
                 step, (long long)first, (long long)last);
        if (!pm_model_state_equal(&r->model, state, what, msg, sizeof(msg)))
            fail_msg("%s", msg);
        pm_free(state);
        r->exact_checks++;
    }
    if (c->producer == PM_MODEL_CL_INPUT) {
        /* per key, the changes are the records written, in order */
        int *cursor = pm_calloc(PM_MODEL_KEYS, sizeof(int));
        bool *used = pm_calloc(r->written_count + 1, sizeof(bool));
        assert_non_null(cursor);
        assert_non_null(used);
        for (size_t i = 0; i < ch.count; i++) {
            const pm_model_record *x = &ch.records[i];
            size_t j = (size_t)cursor[x->k];
            while (j < r->written_count && r->written[j].k != x->k)
                j++;
            if (j == r->written_count)
                fail_msg("%s step %d: input change %s is more than was written", r->name, step,
                         pm_model_record_text(x, a, sizeof(a)));
            if (!pm_model_record_equal(x, &r->written[j]))
                fail_msg("%s step %d: input change %s where %s was written", r->name, step,
                         pm_model_record_text(x, a, sizeof(a)),
                         pm_model_record_text(&r->written[j], b, sizeof(b)));
            used[j] = true;
            cursor[x->k] = (int)j + 1;
        }
        for (size_t j = 0; j < r->written_count; j++)
            if (!used[j])
                fail_msg("%s step %d: %s was written, no input change reports it", r->name, step,
                         pm_model_record_text(&r->written[j], a, sizeof(a)));
        pm_free(cursor);
        pm_free(used);
        r->input_checks++;
    }
    pm_free(in_changes);
    pm_model_changes_free(&ch);
}

/* ---- after every step -------------------------------------------------------------------- */

/* `job`: the step was a dedicated compaction. */
static void check_step(run *r, int step, int64_t id, bool job)
{
    pm_model_state *got = pm_malloc(sizeof(*got));
    const pm_model_state *want = &r->model;
    bool lookup = pm_model_combo_needs_lookup(r->c);
    pm_test_lsm_levels lv;
    char msg[512], what[96];

    assert_non_null(got);
    if (pm_test_check_lsm_levels(r->path, msg, sizeof(msg), &lv) != 0)
        fail_msg("%s step %d: %s", r->name, step, msg);
    if (lv.max_level > r->max_level)
        r->max_level = lv.max_level;
    /* Writers of tables that need lookups compact level 0 away at every commit (lookup-wait,
     * behaviour.md §5.1), and so does any job on them (ForceUpLevel0Compaction); only
     * write-only writers leave level-0 files, which batch reads of first-row and
     * deletion-vector tables skip. */
    if (lookup && (job || !r->write_only) && lv.level0_files > 0)
        fail_msg("%s step %d: %zu level-0 files left after the %s", r->name, step, lv.level0_files,
                 job ? "compaction" : "commit");
    if (lv.level0_files == 0)
        r->visible = r->model;
    else if (r->c->deletion_vectors || r->c->engine == PM_MODEL_FIRST_ROW)
        want = &r->visible;
    if (pm_model_read_state(r->path, got, msg, sizeof(msg)) != 0)
        fail_msg("%s step %d: %s", r->name, step, msg);
    snprintf(what, sizeof(what), "%s step %d: read", r->name, step);
    if (!pm_model_state_equal(want, got, what, msg, sizeof(msg)))
        fail_msg("%s", msg);
    pm_free(got);
    for (size_t i = 0; i < r->written_count; i++)
        r->pending[r->written[i].k] = true;
    if (id != 0) {
        if (id <= r->last_snapshot || id > r->last_snapshot + PM_MODEL_MAX_SNAPSHOTS)
            fail_msg("%s step %d: snapshot %lld after %lld", r->name, step, (long long)id,
                     (long long)r->last_snapshot);
        check_changes(r, step, r->last_snapshot + 1, id, &lv);
        r->last_snapshot = id;
    } else if (!pm_model_state_equal(&r->model, &r->before, what, msg, sizeof(msg))) {
        fail_msg("%s (no snapshot was made)", msg);
    }
    r->before = r->model;
    r->written_count = 0;
}

/* ---- the run ----------------------------------------------------------------------------- */

/* Sets write-only (a table option Java lets ALTER change) for the writers opened next. */
static void set_write_only(run *r, bool on, int step)
{
    paimon_alter change = PAIMON_ALTER_INIT;
    paimon_error err;
    change.kind = PAIMON_ALTER_SET_OPTION;
    change.column = "write-only";
    change.value = on ? "true" : "false";
    if (paimon_table_alter(r->path, &change, NULL, &err) != 0)
        fail_msg("%s step %d: alter write-only: %s", r->name, step, err.message);
    r->write_only = on;
}

static void compact_step(run *r, paimon_table *t, int step, bool full)
{
    paimon_compact_options cop = PAIMON_COMPACT_OPTIONS_INIT;
    paimon_error err;
    int64_t id = 0;
    cop.full = full;
    if (paimon_table_compact(t, &cop, &id, &err) != 0)
        fail_msg("%s step %d: compact%s: %s", r->name, step, cop.full ? " --full" : "",
                 err.message);
    r->compactions++;
    r->compact_snapshots += id != 0;
    if (getenv("MODEL_DEBUG") != NULL)
        fprintf(stderr, "%s step %d: compact full=%d -> %lld\n", r->name, step, cop.full,
                (long long)id);
    check_step(r, step, id, true);
}

static void write_step(run *r, paimon_table *t, paimon_writer **w, int step)
{
    paimon_commit_messages *msgs;
    paimon_commit_options co = PAIMON_COMMIT_OPTIONS_INIT;
    paimon_error err;
    int64_t id = 0;
    int n = 20 + (int)rnd(r, 120);
    if (*w == NULL || rnd(r, 4) == 0) {
        paimon_writer_free(*w);
        *w = NULL;
        if (paimon_writer_open(w, t, NULL, &err) != 0)
            fail_msg("%s step %d: writer: %s", r->name, step, err.message);
    }
    for (int i = 0; i < n; i++) {
        pm_model_record rec;
        gen_record(r, &rec);
        write_record(r, *w, &rec, step);
    }
    assert_int_equal(paimon_commit_messages_new(&msgs, &err), 0);
    if (paimon_writer_prepare_commit(*w, msgs, &err) != 0)
        fail_msg("%s step %d: prepare: %s", r->name, step, err.message);
    co.identifier = step;
    co.commit_user = "model";
    if (paimon_table_commit(t, msgs, &co, &id, &err) != 0)
        fail_msg("%s step %d: commit: %s", r->name, step, err.message);
    paimon_commit_messages_free(msgs);
    r->write_only_commits += r->write_only;
    check_step(r, step, id, false);
}

/* The steps of a run, in cycles of COMPACT_EVERY: commits by writers (kept across commits or
 * reopened at random), then a dedicated job with the writer closed (its levels would be stale,
 * as a Java writer's would).  Even cycles end with `compact --full`; odd ones write their last
 * WRITE_ONLY commits with write-only=true (no writer-side compaction: level-0 files pile up)
 * and end with a plain `compact`, which then has something to pick. */
void pm_model_run(const pm_model_combo *c, const pm_model_params *p)
{
    run *r = pm_calloc(1, sizeof(*r));
    paimon_table *t = NULL;
    paimon_writer *w = NULL;
    paimon_error err;
    char tag[64];

    assert_non_null(r);
    r->c = c;
    r->rng = p->seed;
    r->max_level = -1;
    pm_model_combo_name(c, r->name, sizeof(r->name));
    snprintf(tag, sizeof(tag), "model-%s-%s%s", pm_model_engine_name(c->engine),
             pm_model_producer_name(c->producer), c->deletion_vectors ? "-dv" : "");
    r->path = pm_test_table_path(tag);
    if (create_table(r->path, c, p->delta_commits, &err) != 0)
        fail_msg("%s: create: %s", r->name, err.message);
    assert_int_equal(paimon_table_open(&t, r->path, &err), 0);
    for (int step = 0; step < p->steps; step++) {
        int cycle = step / COMPACT_EVERY, at = step % COMPACT_EVERY;
        bool odd = cycle % 2 == 1;
        if (at == COMPACT_EVERY - 1) {
            paimon_writer_free(w);
            w = NULL;
            compact_step(r, t, step, !odd);
            if (r->write_only)
                set_write_only(r, false, step);
        } else {
            if (odd && at == COMPACT_EVERY - 1 - WRITE_ONLY) {
                paimon_writer_free(w); /* the next writer reads the new option */
                w = NULL;
                set_write_only(r, true, step);
            }
            write_step(r, t, &w, step);
        }
    }
    paimon_writer_free(w);
    paimon_table_free(t);
    if (getenv("MODEL_DEBUG") != NULL)
        fprintf(stderr,
                "%s seed %llu: %lld records, %d jobs (%d snapshots), %d write-only commits, max "
                "level %d; checks: %d exact, %d settled, %d input, %d weak; %lld change rows\n",
                r->name, (unsigned long long)p->seed, (long long)r->records, r->compactions,
                r->compact_snapshots, r->write_only_commits, r->max_level, r->exact_checks,
                r->settled_checks, r->input_checks, r->weak_checks, (long long)r->change_rows);
    /* the run exercised what it is about */
    if (p->steps >= DEFAULT_STEPS) {
        int commits = p->steps - p->steps / COMPACT_EVERY;
        assert_true(r->records > 2500);
        assert_true(r->compactions >= 5);
        int write_only_cycles = p->steps / COMPACT_EVERY / 2;
        /* at least the jobs after write-only commits compact something */
        assert_true(r->compact_snapshots >= write_only_cycles);
        assert_true(r->write_only_commits >= write_only_cycles * WRITE_ONLY);
        assert_true(r->max_level >= 1);
        assert_true(r->change_rows > 1000);
        if (c->producer == PM_MODEL_CL_LOOKUP)
            assert_true(r->settled_checks >= commits - r->write_only_commits);
        else if (c->producer == PM_MODEL_CL_FULL_COMPACTION)
            assert_true(r->settled_checks >= 5);
        else
            assert_true(r->weak_checks >= commits);
        if (c->engine == PM_MODEL_DEDUPLICATE && c->producer != PM_MODEL_CL_LOOKUP &&
            c->producer != PM_MODEL_CL_FULL_COMPACTION)
            assert_true(r->exact_checks >= commits);
        if (c->producer == PM_MODEL_CL_INPUT)
            assert_true(r->input_checks >= commits);
    }
    remove_table(r->path);
    pm_free(r->written);
    pm_free(r);
}

/* ---- the matrix -------------------------------------------------------------------------- */

/* Java refuses the table at create, with its reason, and nothing is written. */
static void check_rejected(const pm_model_combo *c)
{
    char *path = pm_test_table_path("model-rejected");
    char name[64], schema[4200];
    struct stat st;
    paimon_error err;
    int rc = create_table(path, c, 0, &err);
    pm_model_combo_name(c, name, sizeof(name));
    if (rc == 0)
        fail_msg("%s: created, but Java rejects it: %s", name, c->rejected);
    assert_int_equal(rc, PAIMON_EINVALID);
    if (strstr(err.message, c->rejected) == NULL)
        fail_msg("%s: rejected with \"%s\", expected Java's reason \"%s\"", name, err.message,
                 c->rejected);
    snprintf(schema, sizeof(schema), "%s/schema/schema-0", path);
    if (stat(schema, &st) == 0)
        fail_msg("%s: the refused create left %s", name, schema);
    remove_table(path);
}

/* The table is valid, and paimon-c's writer refuses it today, naming why. */
static void check_refused(const pm_model_combo *c)
{
    char *path = pm_test_table_path("model-refused");
    char name[64];
    paimon_table *t = NULL;
    paimon_writer *w = NULL;
    paimon_error err;
    int rc;
    pm_model_combo_name(c, name, sizeof(name));
    if (create_table(path, c, 0, &err) != 0)
        fail_msg("%s: create: %s", name, err.message);
    assert_int_equal(paimon_table_open(&t, path, &err), 0);
    rc = paimon_writer_open(&w, t, NULL, &err);
    if (rc == 0)
        fail_msg("%s: paimon-c writes it now: flip its line in tests/lib/model_combo.c so the "
                 "model runs it",
                 name);
    assert_int_equal(rc, PAIMON_EUNSUPPORTED);
    assert_true(strlen(err.message) > 20);
    paimon_writer_free(w);
    paimon_table_free(t);
    remove_table(path);
}

static int env_int(const char *name, int fallback)
{
    const char *v = getenv(name);
    return v != NULL && atoi(v) > 0 ? atoi(v) : fallback;
}

static void combo_test(void **state)
{
    const pm_model_combo *c = *state;
    pm_model_params p;
    const char *seed = getenv("PAIMON_MODEL_SEED");
    if (c->rejected != NULL) {
        check_rejected(c);
        return;
    }
    if (!pm_model_combo_writable(c)) {
        check_refused(c);
        return;
    }
    p.seed = 1 + 1000 * (uint64_t)(c - pm_model_combos);
    p.steps = DEFAULT_STEPS;
    /* full-compaction: writers compact fully at every commit (the producer's default), every
     * 3rd or every 4th, with universal compactions into lower levels in between */
    p.delta_commits = c->producer != PM_MODEL_CL_FULL_COMPACTION ? 0
                      : c->engine == PM_MODEL_AGGREGATION        ? 4
                      : c->engine == PM_MODEL_PARTIAL_UPDATE     ? 3
                                                                 : 0;
    pm_model_run(c, &p);
    if (seed != NULL) {
        p.seed = strtoull(seed, NULL, 10);
        p.steps = env_int("PAIMON_MODEL_STEPS", DEFAULT_STEPS);
        pm_model_run(c, &p);
    }
}

int pm_model_main(pm_model_engine e)
{
    static struct CMUnitTest tests[16];
    static char names[16][96];
    size_t n = 0;
    /* the matrix holds every combination once */
    if (pm_model_combo_count != 4 * 4 * 2) {
        fprintf(stderr, "model_combo.c lists %zu combinations, not 32\n", pm_model_combo_count);
        return 1;
    }
    for (size_t i = 0; i < pm_model_combo_count; i++)
        for (size_t j = 0; j < i; j++)
            if (pm_model_combos[i].engine == pm_model_combos[j].engine &&
                pm_model_combos[i].producer == pm_model_combos[j].producer &&
                pm_model_combos[i].deletion_vectors == pm_model_combos[j].deletion_vectors) {
                fprintf(stderr, "model_combo.c lists combination %zu twice\n", i);
                return 1;
            }
    for (size_t i = 0; i < pm_model_combo_count; i++) {
        const pm_model_combo *c = &pm_model_combos[i];
        char combo[64];
        if (c->engine != e)
            continue;
        assert_true(n < 16);
        snprintf(names[n], sizeof(names[n]), "%s: %s", pm_model_combo_name(c, combo, sizeof(combo)),
                 c->rejected != NULL           ? "Java rejects it"
                 : !pm_model_combo_writable(c) ? "paimon-c refuses to write it (today)"
                                               : "model");
        memset(&tests[n], 0, sizeof(tests[n]));
        tests[n].name = names[n];
        tests[n].test_func = combo_test;
        tests[n].initial_state = (void *)c;
        n++;
    }
    return _cmocka_run_group_tests(pm_model_engine_name(e), tests, n, NULL, NULL);
}

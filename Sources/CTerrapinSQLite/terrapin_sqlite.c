// SQLite's progress handler as a work budget (see include/terrapin_sqlite.h).
#include "terrapin_sqlite.h"

#include <stdlib.h>

struct tp_sqlite_work {
    long budget;
    long left;
    long total_left;
};

static int tp_progress(void *context) {
    tp_sqlite_work *work = context;
    // Non-zero interrupts the statement: its own budget spent, or the connection's.
    return --work->left < 0 || --work->total_left < 0;
}

tp_sqlite_work *tp_sqlite_bound_work(sqlite3 *db, long thousands, long total_thousands) {
    tp_sqlite_work *work = malloc(sizeof *work);
    if (work == NULL) return NULL;
    work->budget = thousands;
    work->left = thousands;
    work->total_left = total_thousands;
    sqlite3_progress_handler(db, 1000, tp_progress, work);
    return work;
}

long tp_sqlite_used(const tp_sqlite_work *work) {
    return work == NULL ? 0 : work->budget - work->left;
}

void tp_sqlite_reset_work(tp_sqlite_work *work) {
    if (work != NULL) work->left = work->budget;
}

int tp_sqlite_total_spent(const tp_sqlite_work *work) {
    return work != NULL && work->total_left < 0;
}

void tp_sqlite_free_work(sqlite3 *db, tp_sqlite_work *work) {
    if (db != NULL) sqlite3_progress_handler(db, 0, NULL, NULL);
    free(work);
}

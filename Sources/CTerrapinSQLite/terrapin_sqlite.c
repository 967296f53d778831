// SQLite's progress handler as a work budget (see include/terrapin_sqlite.h).
#include "terrapin_sqlite.h"

#include <stdlib.h>

struct tp_sqlite_work {
    long budget;
    long left;
};

static int tp_progress(void *context) {
    tp_sqlite_work *work = context;
    return --work->left < 0;   // non-zero interrupts the statement
}

tp_sqlite_work *tp_sqlite_bound_work(sqlite3 *db, long thousands) {
    tp_sqlite_work *work = malloc(sizeof *work);
    if (work == NULL) return NULL;
    work->budget = thousands;
    work->left = thousands;
    sqlite3_progress_handler(db, 1000, tp_progress, work);
    return work;
}

void tp_sqlite_reset_work(tp_sqlite_work *work) {
    if (work != NULL) work->left = work->budget;
}

void tp_sqlite_free_work(sqlite3 *db, tp_sqlite_work *work) {
    if (db != NULL) sqlite3_progress_handler(db, 0, NULL, NULL);
    free(work);
}

// The C side of Terrapin's MBTiles reader: a work budget for SQLite statements.
//
// A tile archive is a SQLite database someone else made. Its `tiles` or `metadata` can be a
// view over a recursive CTE that never ends, so every statement gets a budget of virtual-machine
// steps: SQLite's progress handler (a callback, hence this file) counts them and interrupts the
// statement when the budget is spent, and the step returns SQLITE_INTERRUPT.
#ifndef TERRAPIN_SQLITE_H
#define TERRAPIN_SQLITE_H

#include <sqlite3.h>

typedef struct tp_sqlite_work tp_sqlite_work;

/// Installs a budget of `thousands` × 1000 VM steps a statement, and `total_thousands` × 1000
/// for all of `db`'s statements together, on `db`; NULL when out of memory. (SQLite calls the
/// handler every 1000 steps of a statement: a short statement, such as an indexed read, never
/// spends from either.)
tp_sqlite_work *tp_sqlite_bound_work(sqlite3 *db, long thousands, long total_thousands);
/// Whether the connection's total budget is spent.
int tp_sqlite_total_spent(const tp_sqlite_work *work);
/// Thousands of steps the current statement has taken, as the handler counted them.
long tp_sqlite_used(const tp_sqlite_work *work);
/// Gives the next statement the whole budget again.
void tp_sqlite_reset_work(tp_sqlite_work *work);
/// Removes the handler from `db` (before it is closed) and frees the budget.
void tp_sqlite_free_work(sqlite3 *db, tp_sqlite_work *work);

#endif

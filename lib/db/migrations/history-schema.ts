/**
 * The name the local history's SQLite file is attached under on the server's connection
 * (lib/db/history-file.ts), which the migrations that create its tables write to. Here, with
 * the migrations, so they need nothing from the folder that runs them.
 */
export const HISTORY_SCHEMA = 'history';

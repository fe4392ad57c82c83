/**
 * The local history's endpoint under its name before 2026-12 (/api/mirror): the same handlers as
 * /api/history, kept for one release so scripts written against it go on working (README, "The
 * dashboard's HTTP API").
 */
export { DELETE, GET, OPTIONS, PATCH, POST, PUT } from '../history/route';

export const runtime = 'nodejs';
export const dynamic = 'force-dynamic';

/**
 * A port the demo launchers are told to use (PORT, SIM_PORT), checked before anything starts: a
 * word there gave Node's "options.port should be >= 0 and < 65536 … (NaN)", naming no variable.
 */
export function portOf(variable: string, fallback: number, env: NodeJS.ProcessEnv = process.env): number {
  const raw = env[variable]?.trim();
  if (!raw) return fallback;
  const port = Number(raw);
  if (!Number.isInteger(port) || port < 1 || port > 65_535) {
    console.error(
      `${variable}=${JSON.stringify(raw)} is not a port: give a whole number from 1 to 65535, e.g. ${variable}=${fallback}.`,
    );
    process.exit(1);
  }
  return port;
}

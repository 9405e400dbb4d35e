/** Runs a command to completion; its stdout, or an error carrying the end of its output. */
export async function runCommand(cmd: string[], opts: { env?: Record<string, string>; cwd?: string } = {}): Promise<string> {
  const proc = Bun.spawn(cmd, {
    stdin: "ignore",
    stdout: "pipe",
    stderr: "pipe",
    cwd: opts.cwd,
    env: { ...process.env, ...opts.env },
  });
  const [out, err, code] = await Promise.all([new Response(proc.stdout).text(), new Response(proc.stderr).text(), proc.exited]);
  if (code !== 0) throw new Error(`Command failed (exit ${code}): ${cmd.join(" ")}\n${(err || out).split("\n").slice(-30).join("\n")}`);
  return out;
}

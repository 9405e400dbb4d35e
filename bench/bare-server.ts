/**
 * The baseline: a bare `Bun.serve` hello-world. Every other target is compared
 * with it. Started by the runner as its own bun process, like the real server.
 */
const server = Bun.serve({
  hostname: "127.0.0.1",
  port: Number(process.env.PORT ?? 3000),
  fetch: () => new Response("Hello, world!"),
});

console.log(`bare Bun.serve listening on ${server.url}`);

for (const signal of ["SIGTERM", "SIGINT"] as const) {
  process.on(signal, () => {
    server.stop(true);
    process.exit(0);
  });
}

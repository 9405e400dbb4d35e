/** Events: workspace events, the bus port that fans them out, and `emit`, how use cases publish. */
export * from "./event.ts";
export * from "./ports.ts";
export * from "./emit.ts";
export * from "./stream-end.ts";

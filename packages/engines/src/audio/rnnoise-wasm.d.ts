/** @echogarden/rnnoise-wasm ships no types: an Emscripten factory resolving to the module. */
declare module '@echogarden/rnnoise-wasm' {
  const factory: () => Promise<unknown>;
  export default factory;
}

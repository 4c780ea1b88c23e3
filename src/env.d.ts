/// <reference types="vite/client" />

declare module '*?script' {
  /** The built file's path inside the extension, for scripting.executeScript. */
  const path: string;
  export default path;
}

import { main } from './main.js';

// The executable entry: bin/svc runs the compiled copy of this file.
void main(process.argv.slice(2)).then((code) => {
  process.exitCode = code;
});

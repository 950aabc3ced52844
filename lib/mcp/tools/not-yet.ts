import { left } from 'fp-ts/lib/Either.js';
import { unavailable, type Outcome } from '../../../commands/refusal.js';

// Tools whose capability the ServiceApi does not offer yet answer a clear error instead of
// pretending; they are listed so clients know the name exists.
export const notYet = (capability: string): Outcome<object> => left(unavailable(`not available yet: ${capability}`));

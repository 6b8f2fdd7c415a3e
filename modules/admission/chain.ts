/**
 * The admission chain: every plugin's mutating stage in order, later every plugin's validating stage in order
 * (the generic store calls the two stages around the kind's own defaulting and validation).
 */
import type { Admission, AdmissionAttributes } from '../registry/index.js';
import type { AdmissionPlugin } from './plugin.js';

type Stage = (attributes: AdmissionAttributes) => void | Promise<void>;

/** Runs stages in order; awaits only stages that returned a promise, so synchronous plugins cost no tick. */
function sequence(stages: Stage[]): Stage {
  return (attributes) => {
    for (let i = 0; i < stages.length; i++) {
      const pending = stages[i](attributes);
      if (pending) return pending.then(() => sequence(stages.slice(i + 1))(attributes));
    }
  };
}

export class AdmissionChain implements Admission {
  readonly admit: Stage;
  readonly validate: Stage;

  constructor(readonly plugins: readonly AdmissionPlugin[]) {
    this.admit = sequence(plugins.flatMap((p) => (p.admit ? [p.admit.bind(p)] : [])));
    this.validate = sequence(plugins.flatMap((p) => (p.validate ? [p.validate.bind(p)] : [])));
  }
}

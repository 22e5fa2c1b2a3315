import { accessibilitySuite } from './accessibility.ts';

/** The super agent's and the agent's screens (e2e/accessibility.ts). */
accessibilitySuite({ roles: ['superagent', 'agent'], needs: { frozen: true } });

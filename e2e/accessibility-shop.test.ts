import { accessibilitySuite } from './accessibility.ts';

/** The shop's screens (e2e/accessibility.ts). */
accessibilitySuite({ roles: ['user'], needs: { shop: true } });

/** The launch code lives in cli/launch.ts (the headless runner uses it too); tests import it here. */
export * from '../../../cli/launch';

export { isCriticalAction } from './critical';
export { checkPermission, DEFAULT_POLICY, isGrantable, updateHarborPolicyForDecision, type HarborPolicy } from './policy';
export { originOf, sameSite, siteOf } from './site';

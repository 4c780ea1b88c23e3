/**
 * Every tool Jawad has, one file each. To add one: write src/background/tools/<name>.ts with
 * defineTool(), and list it here.
 */
import { check, uncheck } from './check';
import { click } from './click';
import { closeTab } from './close-tab';
import { doubleClick } from './double-click';
import { focus } from './focus';
import { get } from './get';
import { hover } from './hover';
import { is } from './is';
import { pressKey } from './press-key';
import { scroll } from './scroll';
import { typeText } from './type-text';
import { fill } from './fill';
import { goBack, goForward, reloadTab } from './history-navigation';
import { highlight } from './highlight';
import { listTabs } from './list-tabs';
import { newTab } from './new-tab';
import { openUrl } from './open-url';
import { readPage } from './read-page';
import { selectOption } from './select-option';
import { snapshot } from './snapshot';
import { ToolRegistry } from './registry';
import { switchTab } from './switch-tab';
import type { Tool } from './tool';

// Each tool's run() takes its own parameter type; the registry validates before calling, so the
// list can hold them under the common Tool type.
export const TOOLS = [snapshot, click, doubleClick, fill, typeText, pressKey, selectOption, check, uncheck, hover, focus, scroll, get, is, readPage, highlight, listTabs, openUrl, newTab, switchTab, closeTab, goBack, goForward, reloadTab] as Tool[];

export function createToolRegistry(): ToolRegistry {
  return new ToolRegistry(TOOLS);
}

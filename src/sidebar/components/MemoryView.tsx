import { useEffect, useState } from 'preact/hooks';
import type { Memory } from '../../protocol';
import { forgetMemory, loadMemories, previewRecall, saveMemory, setMemoryEnabled, state } from '../store';
import { UsedContextList } from './MessageItem';

const SOURCE_TEXT: Record<Memory['source'], string> = { user: 'Saved by you', conversation: 'From a conversation', page: 'Read on a web page' };

function Provenance({ memory }: { memory: Memory }) {
  return (
    <span class="provenance">
      {SOURCE_TEXT[memory.source]}
      {memory.site && <> · {memory.site}</>}
      {memory.source === 'page' && !memory.pinned && <> · offered only on this site</>} · {new Date(memory.updatedAt).toLocaleDateString()}
    </span>
  );
}

function MemoryRow({ memory }: { memory: Memory }) {
  const [editing, setEditing] = useState(false);
  const [text, setText] = useState(memory.text);
  return (
    <li data-memory-id={memory.id} data-source={memory.source}>
      {editing ? (
        <form
          class="memory-edit"
          onSubmit={(event) => {
            event.preventDefault();
            if (text.trim()) saveMemory(text, memory.pinned, memory.id);
            setEditing(false);
          }}
        >
          <textarea aria-label="Memory text" value={text} maxLength={2000} onInput={(event) => setText(event.currentTarget.value)} />
          <button type="submit">Save</button>
        </form>
      ) : (
        <p class="memory-text">{memory.text}</p>
      )}
      <Provenance memory={memory} />
      <span class="row-actions">
        <button type="button" class="link-button" onClick={() => setEditing(!editing)}>
          Edit
        </button>
        <button type="button" class="link-button" aria-pressed={memory.pinned} onClick={() => saveMemory(memory.text, !memory.pinned, memory.id)}>
          {memory.pinned ? 'Unpin' : memory.source === 'page' ? 'Pin (offer on every site)' : 'Pin'}
        </button>
        <button type="button" class="link-button" onClick={() => forgetMemory('memory', memory.id)}>
          Forget
        </button>
      </span>
    </li>
  );
}

export function MemoryView() {
  const [draft, setDraft] = useState('');
  useEffect(loadMemories, []);
  const memory = state.value.memory;
  return (
    <section class="memory-view" aria-label="Memory">
      <h2>Memory</h2>
      <label class="inline">
        <input type="checkbox" name="memoryEnabled" checked={memory?.enabled ?? true} disabled={!memory} onChange={(event) => setMemoryEnabled(event.currentTarget.checked)} />
        Use memory: give the model related earlier messages and saved facts, shown under each answer
      </label>
      <form
        class="memory-add"
        onSubmit={(event) => {
          event.preventDefault();
          if (draft.trim()) saveMemory(draft, false);
          setDraft('');
        }}
      >
        <input aria-label="Something to remember" placeholder="Something Jawad should remember" value={draft} maxLength={2000} onInput={(event) => setDraft(event.currentTarget.value)} />
        <button type="submit">Remember</button>
      </form>
      <form
        class="memory-add recall-preview"
        onSubmit={(event) => {
          event.preventDefault();
          previewRecall(String(new FormData(event.currentTarget).get('question') ?? ''));
        }}
      >
        <input name="question" aria-label="Try a question" placeholder="Try a question: what would Jawad recall?" />
        <button type="submit">Try</button>
      </form>
      {state.value.recall && (state.value.recall.used.length > 0 ? <UsedContextList items={state.value.recall.used} /> : <p class="muted">Nothing would be recalled for “{state.value.recall.question}”.</p>)}
      {memory && memory.memories.length === 0 && <p class="muted">No saved memories. Product facts of pages you ask about are kept here, for that site only.</p>}
      <ul>
        {memory?.memories.map((m) => (
          <MemoryRow key={`${m.id}:${m.updatedAt}`} memory={m} />
        ))}
      </ul>
    </section>
  );
}

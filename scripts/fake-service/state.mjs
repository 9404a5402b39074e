// The fake's organisation: sessions (with messages), computers, enterprise-control history, and
// the scripted changes a test or a person applies to them over time.

// A small organisation to start from: one running session, one idle, one healthy computer, one
// revision of the enterprise controls.
export function demoState(now) {
  return {
    sessions: [
      session("sess-running", "running", "Fix the flaky checkout test", 6, now - 60_000),
      session("sess-idle", "idle", "Write the release notes", 12, now - 3_600_000),
    ],
    computers: [
      {
        id: "comp-build",
        name: "build-box",
        providerType: "hosted",
        createdAt: now - 86_400_000,
        hostname: "build-box.internal",
        status: "active",
        provisioningSteps: [step("install-deps", "completed"), step("clone-repos", "completed")],
      },
    ],
    history: [
      {
        revision: 1,
        settings: {
          sessionDefaultSettings: {
            model: "model-alpha",
            specModeModel: "model-beta",
            runInWorktree: false,
          },
          commandDenylist: ["rm -rf /"],
          modelPolicy: { allowCustomModels: false, allowedModelIds: ["model-alpha"] },
        },
        user: { id: "u-ada", email: "ada@example.com", name: "Ada" },
        updatedAt: new Date(now - 7 * 86_400_000).toISOString(),
      },
    ],
    messages: new Map(),
  };
}

export function session(sessionId, status, title, messageCount, at) {
  return {
    sessionId,
    status,
    messageCount,
    createdAt: at,
    updatedAt: at,
    title,
    sessionSettings: {
      model: "model-alpha",
      tokenUsage: {
        inputTokens: 1000 * messageCount,
        outputTokens: 250 * messageCount,
        cacheCreationTokens: 0,
        cacheReadTokens: 500 * messageCount,
        thinkingTokens: 0,
        serviceCredits: 40 * messageCount,
      },
    },
  };
}

export function step(name, status, error) {
  return {
    id: `step-${name}`,
    name,
    status,
    ...(error ? { error } : {}),
    startedAt: Date.now() - 60_000,
    ...(status === "completed" ? { completedAt: Date.now() - 30_000 } : {}),
  };
}

// Applies one scripted change. Ops (JSON, so they can come over HTTP too):
//   {op:"session", sessionId, ...fields}      create or update a session (updatedAt is bumped)
//   {op:"computer", id, ...fields}            create or update a computer
//   {op:"step", computerId, name, status, error?, installSessionId?}   set one provisioning step
//   {op:"revision", settings, user?}          a new enterprise-control revision
//   {op:"message", sessionId, role, text, isError?, isUserVisible?}  a message (messageCount +1)
export function applyOp(state, op, now) {
  switch (op.op) {
    case "session": {
      const fields = { ...op };
      delete fields.op;
      const found = state.sessions.find((s) => s.sessionId === op.sessionId);
      if (found) Object.assign(found, fields, { updatedAt: now });
      else
        state.sessions.push({ ...session(op.sessionId, "pending", undefined, 0, now), ...fields });
      return;
    }
    case "computer": {
      const fields = { ...op };
      delete fields.op;
      const found = state.computers.find((c) => c.id === op.id);
      if (found) Object.assign(found, fields);
      else
        state.computers.push({
          name: op.id,
          providerType: "hosted",
          createdAt: now,
          provisioningSteps: [],
          ...fields,
        });
      return;
    }
    case "step": {
      const computer = state.computers.find((c) => c.id === op.computerId);
      if (!computer) throw new Error(`no computer ${op.computerId}`);
      computer.provisioningSteps ??= [];
      const fresh = {
        ...step(op.name, op.status, op.error),
        ...(op.installSessionId ? { installSessionId: op.installSessionId } : {}),
      };
      const at = computer.provisioningSteps.findIndex((s) => s.name === op.name);
      if (at >= 0) computer.provisioningSteps[at] = fresh;
      else computer.provisioningSteps.push(fresh);
      return;
    }
    case "revision": {
      const revision = (state.history[0]?.revision ?? 0) + 1;
      state.history.unshift({
        revision,
        settings: op.settings,
        user: op.user ?? { id: "u-bob", email: "bob@example.com", name: "Bob" },
        updatedAt: new Date(now).toISOString(),
      });
      return;
    }
    case "message": {
      const found = state.sessions.find((s) => s.sessionId === op.sessionId);
      if (!found) throw new Error(`no session ${op.sessionId}`);
      const list = state.messages.get(op.sessionId) ?? [];
      state.messages.set(op.sessionId, list);
      // Distinct, increasing times (ops applied in one go share a millisecond), and the
      // previous message as parentId.
      const at = Math.max(now, (list.at(-1)?.createdAt ?? 0) + 1);
      list.push({
        id: `msg-${op.sessionId}-${list.length + 1}`,
        role: op.role,
        content: [{ id: "c1", text: op.text }],
        createdAt: at,
        updatedAt: at,
        ...(list.length > 0 ? { parentId: list.at(-1).id } : {}),
        isUserVisible: op.isUserVisible ?? true,
        ...(op.isError === undefined ? {} : { isError: op.isError }),
      });
      Object.assign(found, { messageCount: (found.messageCount ?? 0) + 1, updatedAt: now });
      return;
    }
    default:
      throw new Error(`unknown op ${JSON.stringify(op.op)}`);
  }
}

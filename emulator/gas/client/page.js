/*
 * google.script.run as the HtmlService iframe provides it, for a page the local runtime serves to a
 * browser. Plain browser JavaScript, injected as it is (see index.ts: pageScript): one function
 * EXPRESSION that pageScript calls, so no trailing `;` (biome.json leaves this file unformatted). Google's rules are
 * applied HERE, in the page, before anything leaves it (guides/html/communication, reference/html/
 * google-script-run):
 *  - arguments: numbers, booleans, strings, null, and plain objects/arrays of those; a Date,
 *    function, DOM node, class instance (anything whose prototype is not Object's or Array's) or a
 *    circular reference anywhere inside makes the call FAIL; undefined inside an array becomes null,
 *    an undefined property is dropped; a form element is legal only as the sole argument;
 *  - withSuccessHandler / withFailureHandler / withUserObject each return a NEW runner (the one they
 *    are called on is unchanged); the user object is the handlers' second argument, never sent;
 *  - calls are asynchronous and return nothing; a failure reaches the failure handler as an Error
 *    whose message is the server exception's message; without a failure handler it is thrown
 *    uncaught in the page, as Google's client does;
 *  - only the server's public functions (top-level, not ending in "_") exist on the runner.
 * Arguments: the exposed binding that carries a call to Node, and the public function names.
 */
(function (binding, functionNames) {
  'use strict';
  // Chosen wording, after the message Google's client gives for an illegal argument.
  function illegal(path) {
    return new Error('Failed due to illegal value in property: ' + path);
  }

  function isPlainObject(v) {
    var p = Object.getPrototypeOf(v);
    return p === Object.prototype || p === null;
  }

  /** A JSON-safe copy of `v`, or throws naming the offending path ("0", "1.items.3", ...). */
  function copy(v, path, stack) {
    if (v === null || typeof v === 'string' || typeof v === 'boolean') return v;
    // Non-finite numbers become null, as JSON would (chosen; matches scriptrun.ts on the server).
    if (typeof v === 'number') return isFinite(v) ? v : null;
    if (v === undefined) return null;
    if (typeof v !== 'object') throw illegal(path); // function, symbol, bigint
    if (stack.indexOf(v) >= 0) throw illegal(path); // circular
    stack.push(v);
    var out;
    if (Array.isArray(v) && Object.getPrototypeOf(v) === Array.prototype) {
      out = [];
      for (var i = 0; i < v.length; i++) out.push(copy(v[i], path + '.' + i, stack));
    } else if (isPlainObject(v)) {
      out = {};
      var keys = Object.keys(v);
      for (var k = 0; k < keys.length; k++) {
        if (v[keys[k]] === undefined) continue;
        out[keys[k]] = copy(v[keys[k]], path + '.' + keys[k], stack);
      }
    } else {
      stack.pop();
      throw illegal(path); // Date, DOM node, Map, class instance, typed array, ...
    }
    stack.pop();
    return out;
  }

  /** A form as Google sends it: field name -> value (a repeated name -> array of values). */
  function formValue(form) {
    var out = {};
    for (var i = 0; i < form.elements.length; i++) {
      var el = form.elements[i];
      if (!el.name || el.disabled) continue;
      var type = (el.type || '').toLowerCase();
      if (type === 'file') throw new Error('File inputs are not supported by the local runtime.'); // (chosen: Google sends Blobs)
      if ((type === 'checkbox' || type === 'radio') && !el.checked) continue;
      if (type === 'submit' || type === 'button' || type === 'reset' || type === 'image') continue;
      var values = el.tagName === 'SELECT' && el.multiple ? Array.prototype.filter.call(el.options, function (o) { return o.selected; }).map(function (o) { return o.value; }) : [String(el.value)];
      for (var j = 0; j < values.length; j++) {
        if (!(el.name in out)) out[el.name] = values[j];
        else if (Array.isArray(out[el.name])) out[el.name].push(values[j]);
        else out[el.name] = [out[el.name], values[j]];
      }
    }
    return out;
  }

  /** The arguments as sent: [copies], plus which top-level ones were undefined (they stay undefined). */
  function encodeArgs(args) {
    var undef = [];
    var sent = [];
    for (var i = 0; i < args.length; i++) {
      var a = args[i];
      if (a === undefined) {
        undef.push(i);
        sent.push(null);
      } else if (typeof HTMLFormElement !== 'undefined' && a instanceof HTMLFormElement) {
        if (args.length !== 1) throw illegal(String(i)); // a form must be the only argument
        sent.push(formValue(a));
      } else sent.push(copy(a, String(i), []));
    }
    return JSON.stringify({ args: sent, undef: undef });
  }

  function scriptError(message) {
    var e = new Error(message);
    e.name = 'ScriptError';
    return e;
  }

  // Handlers run as their own tasks (never inside a promise chain): an exception thrown by a
  // handler is an uncaught page error, as with Google's client, not a swallowed rejection.
  function later(f) {
    queueMicrotask(f);
  }

  function settle(state, ok, value) {
    if (ok) {
      if (state.success) state.success(value, state.userObject);
    } else if (state.failure) state.failure(value, state.userObject);
    else {
      // No failure handler: uncaught in the page.
      throw value;
    }
  }

  function invoke(name, args, state) {
    var payload;
    try {
      payload = encodeArgs(args);
    } catch (e) {
      later(function () {
        settle(state, false, e);
      });
      return;
    }
    var send = window[binding];
    send(name, payload).then(
      function (reply) {
        later(function () {
          if (reply && typeof reply.error === 'string') settle(state, false, scriptError(reply.error));
          else settle(state, true, reply.value === undefined ? undefined : JSON.parse(reply.value));
        });
      },
      function (e) {
        later(function () {
          settle(state, false, scriptError(String((e && e.message) || e)));
        });
      },
    );
  }

  function runner(state) {
    var r = {};
    function derive(key, value) {
      var next = { success: state.success, failure: state.failure, userObject: state.userObject };
      next[key] = value;
      return runner(next);
    }
    r.withSuccessHandler = function (f) {
      return derive('success', f);
    };
    r.withFailureHandler = function (f) {
      return derive('failure', f);
    };
    r.withUserObject = function (o) {
      return derive('userObject', o);
    };
    functionNames.forEach(function (name) {
      r[name] = function () {
        invoke(name, Array.prototype.slice.call(arguments), state);
      };
    });
    return r;
  }

  var google = window.google || (window.google = {});
  google.script = google.script || {};
  google.script.run = runner({ success: null, failure: null, userObject: undefined });
})

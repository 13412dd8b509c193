// One evaluation state of a model (model.createInstance()): what posing writes, apart from the
// model, so one model can be posed several ways at once.

import { InterquakeError } from './wasm.js';
import { Views, collected, definePosing, disposeSymbol } from './posing.js';

/** One evaluation state of a model: evaluate / pose / sample / jointMatrix and the matrices, as on the model. */
export class Instance {
  constructor(model) {
    const wasm = model._wasm;
    const handle = wasm.make('iq_wasm_instance_create', [model._handle, wasm.errorPtr], model.name);
    this._model = model;
    this._wasm = wasm;
    this._handle = handle;
    this._disposed = false;
    this._views = new Views(wasm);
    this._inst = wasm.read('iq_instance', wasm.value('iq_wasm_instance', handle));
    // The model keeps its instances only weakly, so an instance dropped without dispose() is collected.
    this._weak = new WeakRef(this);
    model._instances.add(this._weak);
    collected?.register(this, { wasm, handle }, this);
  }

  get model() { return this._model; }

  _check() {
    if (this._disposed) throw new InterquakeError('disposed', 'the instance (or its model) was disposed');
    this._model._check();
  }

  _markDisposed() {
    this._disposed = true;
    this._views.clear();
  }

  /** Frees the instance; the model stays. Twice is fine. */
  dispose() {
    if (this._disposed) return;
    this._markDisposed();
    this._model._instances.delete(this._weak);
    collected?.unregister(this);
    this._wasm.call('iq_wasm_dispose', [this._handle], { allow: ['disposed'] });
  }
}
definePosing(Instance);
if (disposeSymbol) Instance.prototype[disposeSymbol] = function dispose() { this.dispose(); };


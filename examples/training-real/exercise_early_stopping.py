# %%
class EarlyStopping:
    """Stop when the validation loss has not improved by min_delta for `patience` epochs."""

    def __init__(self, patience=3, min_delta=0.0):
        self.patience, self.min_delta = patience, min_delta
        self.best, self.best_epoch, self.bad = float("inf"), None, 0

    def step(self, epoch, val_loss):
        """Record one epoch; return True when training should stop."""
        if val_loss < self.best - self.min_delta:
            self.best, self.best_epoch, self.bad = val_loss, epoch, 0
        else:
            self.bad += 1
        return self.bad >= self.patience


val_losses = [0.90, 0.60, 0.45, 0.40, 0.41, 0.399, 0.42, 0.43, 0.44, 0.38]
for min_delta in [0.0, 0.01]:
    stopper = EarlyStopping(patience=3, min_delta=min_delta)
    for epoch, loss in enumerate(val_losses, start=1):
        if stopper.step(epoch, loss):
            break
    print(f"min_delta={min_delta}: stopped after epoch {epoch}, best epoch {stopper.best_epoch} ({stopper.best})")

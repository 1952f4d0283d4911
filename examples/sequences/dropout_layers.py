# %%
import torch
from torch import nn

torch.manual_seed(0)
device = torch.accelerator.current_accelerator().type if torch.accelerator.is_available() else "cpu"
x = torch.randn(5, 2, 4, device=device)  # zh: (T, N, C) | en: (T, N, C)

# %% warns="UserWarning"
# zh: 只有一层时 dropout 没有地方可加：训练模式下两次运行结果仍然相同
# en: with one layer there is nowhere to put the dropout: two runs in training mode still agree
lstm = nn.LSTM(input_size=4, hidden_size=8, num_layers=1, dropout=0.3).to(device)
lstm.train()
print("1 layer,  train, two runs equal:", torch.equal(lstm(x)[0], lstm(x)[0]))

# %%
# zh: 两层：dropout 加在第 1 层的输出和第 2 层的输入之间，只在训练模式下生效
# en: two layers: dropout sits between layer 1's output and layer 2's input, in training mode only
lstm = nn.LSTM(input_size=4, hidden_size=8, num_layers=2, dropout=0.3).to(device)
lstm.train()
print("2 layers, train, two runs equal:", torch.equal(lstm(x)[0], lstm(x)[0]))
lstm.eval()
print("2 layers, eval,  two runs equal:", torch.equal(lstm(x)[0], lstm(x)[0]))

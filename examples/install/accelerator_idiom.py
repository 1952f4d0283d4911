# %%
import torch

# zh: 课程里每个示例选设备都用这一行：有加速器就用它，否则用 CPU
# en: Every example in this course picks its device with this one line: the accelerator if there is one, else the CPU.
device = torch.accelerator.current_accelerator().type if torch.accelerator.is_available() else "cpu"
print("device:", device)

# %%
# zh: 需要 torch.device 对象时再包一层
# en: Wrap it when a torch.device object is needed.
dev = torch.device(device)
print("torch.device:", dev, " type:", dev.type, " index:", dev.index)

a = torch.ones(2, 3, device=dev)  # zh: 直接建在设备上 | en: created on the device directly
b = torch.arange(3.0).to(dev)  # zh: 从 CPU 移过去 | en: moved there from the CPU
print("a + b:", (a + b).tolist(), " on", (a + b).device.type)

# %%
# zh: current_accelerator() 只看“这个构建支持哪种加速器”，不检查此刻有没有硬件
# en: current_accelerator() reports the accelerator the build supports; it does not check the hardware now.
print(torch.accelerator.current_accelerator.__doc__.strip().splitlines()[0])
print("with check_available=True:", torch.accelerator.current_accelerator(check_available=True))

# %%
# zh: 有加速器时，再看看有几块、当前是哪一块
# en: With an accelerator, how many there are and which one is current.
if torch.accelerator.is_available():
    print("device_count:", torch.accelerator.device_count())
    print("current_device_index:", torch.accelerator.current_device_index())
    if torch.version.hip is not None:
        print("ROCm build: the device type is still 'cuda'")
else:
    print("no accelerator: everything runs on the CPU, and the code above did not change")

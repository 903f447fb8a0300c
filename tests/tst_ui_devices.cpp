// Device picker: PoCL and cpu are listed with their details; the choice is remembered by
// platform + device + driver name; variants the device cannot run are greyed with a reason.
#include "ui/device/device_picker.hpp"
#include "ui_test_helpers.hpp"

#include <QComboBox>
#include <QtTest>

using namespace clscope;
using namespace clscope::ui;

namespace {

DeviceInfo fakeDevice(const std::string& spec, int index, const std::string& platform,
                      const std::string& name, const std::string& type, bool fp64 = true) {
    DeviceInfo d;
    d.spec = spec;
    d.index = index;
    d.platform = platform;
    d.name = name;
    d.type = type;
    d.driver = "1.0";
    d.fp64 = fp64;
    return d;
}

std::vector<DeviceInfo> fakeDevices() {
    DeviceInfo host = fakeDevice("cpu", -1, "clscope", "host", "host");
    return {host, fakeDevice("ocl:0", 0, "Portable Computing Language", "pthread", "CPU"),
            fakeDevice("ocl:1", 1, "NVIDIA CUDA", "H200", "GPU", false)};
}

VariantEntry variant(const std::string& id, VariantKind kind, bool needsFp64 = false) {
    VariantEntry e;
    e.info = {"xpcs", id, id + " label", kind, needsFp64 ? "fp64" : "", "{}", false};
    if (needsFp64)
        e.extraCheck = [](const DeviceInfo& d) {
            return d.fp64 ? Support{} : Support{false, "needs fp64"};
        };
    return e;
}

} // namespace

class TestUiDevices : public QObject {
    Q_OBJECT
    QTemporaryDir dir_;

  private slots:
    void initTestCase() { test::useTemporarySettings(dir_); }

    void listsPoclAndCpu() {
        DevicePicker picker;
        QStringList items;
        for (int i = 0; i < picker.deviceBox()->count(); ++i)
            items << picker.deviceBox()->itemText(i);
        QVERIFY2(items.front().startsWith("cpu"), qPrintable(items.join("; ")));
        bool pocl = false;
        for (const DeviceInfo& d : picker.presenter().devices())
            pocl |= d.platform == "Portable Computing Language";
        QVERIFY2(pocl, qPrintable(items.join("; ")));
        const auto details = DevicePresenter::describe(picker.presenter().devices().at(1));
        QCOMPARE(details.at(0).first, std::string("spec"));
        QCOMPARE(details.at(0).second, std::string("ocl:0"));
    }

    void choiceRememberedByKeyNotIndex() {
        DevicePresenter presenter(fakeDevices());
        QCOMPARE(presenter.current().spec, std::string("ocl:1")); // the first GPU by default
        const std::string poclKey = presenter.devices()[1].key();
        auto reordered = fakeDevices();
        std::swap(reordered[1], reordered[2]);
        DevicePresenter later(reordered);
        QCOMPARE(later.devices()[later.selectByKey(poclKey)].name, std::string("pthread"));
        QCOMPARE(later.selectByKey("gone|device|1.0"), later.defaultIndex());
    }

    void variantsGreyedWithReason() {
        DevicePresenter presenter(fakeDevices());
        const std::vector<VariantEntry> variants{variant("cpu", VariantKind::Host),
                                                 variant("naive", VariantKind::OpenCL),
                                                 variant("fp64", VariantKind::OpenCL, true)};
        presenter.select(2); // the GPU without fp64
        const auto choices = presenter.variantChoices(variants);
        QCOMPARE(choices.size(), std::size_t(3));
        QVERIFY(!choices[0].enabled);
        QVERIFY(QString::fromStdString(choices[0].reason).contains("cpu"));
        QVERIFY(choices[1].enabled);
        QVERIFY(!choices[2].enabled);
        QCOMPARE(choices[2].reason, std::string("needs fp64"));
        presenter.rememberVariant("xpcs", "fp64");
        QCOMPARE(presenter.chooseVariant("xpcs", variants),
                 std::string("naive")); // fp64 not runnable here
        presenter.select(1);
        QCOMPARE(presenter.chooseVariant("xpcs", variants), std::string("fp64"));
        presenter.select(0);
        QCOMPARE(presenter.chooseVariant("xpcs", variants), std::string("cpu"));
    }

    void preferredVariantByDefault() {
        DevicePresenter presenter(fakeDevices());
        std::vector<VariantEntry> variants{variant("naive", VariantKind::OpenCL),
                                           variant("gemm", VariantKind::OpenCL),
                                           variant("cpu", VariantKind::Host)};
        variants[1].info.preferred = true;
        presenter.select(1);
        QCOMPARE(presenter.chooseVariant("xpcs", variants), std::string("gemm"));
        presenter.rememberVariant("xpcs", "naive"); // the user's own choice wins
        QCOMPARE(presenter.chooseVariant("xpcs", variants), std::string("naive"));
        presenter.select(0);
        QCOMPARE(presenter.chooseVariant("xpcs", variants), std::string("cpu"));
    }

    void pickerSettingsRoundTrip() {
        std::string chosenKey;
        {
            DevicePicker picker(fakeDevices());
            picker.selectDevice(1);
            chosenKey = picker.currentDevice().key();
            QSettings s;
            picker.saveSettings(s);
        }
        DevicePicker again(fakeDevices());
        QCOMPARE(again.currentDevice().spec, std::string("ocl:1"));
        QSettings s;
        again.restoreSettings(s);
        QCOMPARE(again.currentDevice().key(), chosenKey);
        QCOMPARE(again.deviceBox()->currentIndex(), 1);
    }
};

QTEST_MAIN(TestUiDevices)
#include "tst_ui_devices.moc"
